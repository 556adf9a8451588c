// The shipped declarations (dist/src/**/*.d.ts, as the tarball has them) compiled by an app with
// 2026's strictest common settings and `skipLibCheck: false`, so Enclave's own .d.ts are checked
// too: an ES module (.mts, NodeNext, verbatimModuleSyntax) with exactOptionalPropertyTypes,
// noUncheckedIndexedAccess, noImplicitOverride and noPropertyAccessFromIndexSignature (docs/installation.md, "ESM
// and strict compiler settings"). The front end compiles `enclave/client` as a browser project
// does: DOM lib, no @types/node, so no declaration it reaches may name a node module or global.
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import ts from 'typescript'

const root = join(__dirname, '..', '..', '..')
const distSrc = join(root, 'dist', 'src').replace(/\\/g, '/')

const strictest: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  verbatimModuleSyntax: true,
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noPropertyAccessFromIndexSignature: true,
  skipLibCheck: false,
  noEmit: true,
  typeRoots: [join(root, 'node_modules', '@types')],
}

// In the compiled test's own folder (dist/test/types), so the imports below reach dist/src.
function diagnostics(name: string, text: string, options: ts.CompilerOptions): string[] {
  const file = join(__dirname, name)
  try {
    writeFileSync(file, text)
    const program = ts.createProgram([file], options)
    const all = [...program.getOptionsDiagnostics(), ...program.getSyntacticDiagnostics(), ...program.getGlobalDiagnostics(), ...program.getSemanticDiagnostics()]
    return all.map((d) => {
      const where = d.file !== undefined && d.start !== undefined ? `${d.file.fileName.replace(root, '')}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : ''
      return `${where}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
    })
  } finally {
    rmSync(file, { force: true })
  }
}

describe('consumer settings: the shipped .d.ts compile under the strictest common settings with skipLibCheck off (docs/installation.md, "ESM and strict compiler settings")', function () {
  this.timeout(240_000)

  it("a browser front end (DOM lib, no @types/node) compiles enclave/client's declarations: none names a node module or global", () => {
    const front = `
import { createClient, defineContract, type ClientResult } from '${distSrc}/client/index.js'
const api = defineContract({
  getNote: { method: 'GET', url: '/notes/:id', schema: { response: { 200: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } } } } },
})
export async function title(signal: AbortSignal): Promise<string> {
  const answer: ClientResult<typeof api.getNote> = await createClient(api, { baseUrl: location.origin }).getNote({ params: { id: '1' }, signal })
  return answer.status === 200 ? answer.body.id + (answer.body.tags?.[0] ?? '') : ''
}
`
    const found = diagnostics('browser-consumer.mts', front, { ...strictest, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] })
    expect(found).to.deep.equal([])
  })

  it('a server (ES module, legacy decorators, NodeNext, verbatimModuleSyntax) compiles the whole declaration tree, and its types stay real (the marked misuses fail)', () => {
    const server = `
import { Body, Get, Implements, Module, Params, Route, createApp, createServer, defineContract, implement, injectable, type Scope } from '${distSrc}/index.js'

const Note = { type: 'object', required: ['id', 'title'], properties: { id: { type: 'string' }, title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, additionalProperties: false } as const
const api = defineContract({
  getNote: { method: 'GET', url: '/notes/:id', schema: { response: { 200: Note } } },
  createNote: { method: 'POST', url: '/notes', schema: { body: { type: 'object', required: ['title'], properties: { title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } }, response: { 201: Note } } },
})

@injectable()
export class Store { first(): string | undefined { return ['a'][0] } }

@Route('/v1')
export class NotesController {
  constructor(private readonly store: Store) {}
  @Implements(api.getNote)
  get(@Params('id') id: string) { return { id, title: this.store.first() ?? '' } }
  @Implements(api.createNote)
  create(@Body() body: { title: string; tags?: string[] }) { return { id: '1', title: body.title, ...(body.tags === undefined ? {} : { tags: body.tags }) } }
  @Get('/plain')
  plain() { return { ok: true } }
}

@Module({ controllers: [NotesController], providers: [Store] })
export class AppModule {}

export function runtime(): Scope {
  const app = createServer({ logger: false })
  app.get('/h', async (request) => ({ agent: request.headers['user-agent'] ?? '', first: request.headers.accept }))
  implement(app, api, {
    getNote: async (request) => ({ id: request.params.id, title: '' }),
    createNote: async (request, reply) => reply.code(201).send({ id: '2', title: request.body.title }),
  })
  return app
}
export const boot = (): Promise<unknown> => createApp(AppModule)
// The types are real under these settings, not any (the one error expected):
void createApp('AppModule')
`
    const found = diagnostics('server-consumer.mts', server, { ...strictest, lib: ['lib.es2022.d.ts'], types: ['node'], experimentalDecorators: true, emitDecoratorMetadata: true })
    expect(found).to.have.length(1, found.join('\n'))
    expect(found[0]).to.match(/server-consumer\.mts:\d+ TS2345 Argument of type 'string'/)
  })
})
