// The temporary app the pack test installs the tarball into: the README's "Getting started"
// section, file by file (its blocks with a path: tsconfig.json, src/*.ts, test/*.ts, the scripts
// of package.json), plus a probe that the package's types are real. Compiled by the app's own
// TypeScript against the installed package, so nothing here may reach into the repository.
import { extractBlocks } from '../docs/code-blocks'

/** The files of README.md's "Getting started" section, by path. */
export function gettingStartedFiles(readme: string): Map<string, string> {
  const start = readme.indexOf('## Getting started')
  if (start < 0) throw new Error('README.md has no "## Getting started" section')
  const end = readme.indexOf('\n## ', start + 1)
  const section = readme.slice(start, end < 0 ? undefined : end)
  return new Map(extractBlocks('README.md', section).filter((b) => b.path !== null).map((b) => [b.path!, b.code] as const))
}

/** The app's package.json: the section's scripts, the tarball, and the versions this repository is tested with. */
export function consumerPackageJson(scripts: Record<string, string>, tarball: string, versions: Record<string, string>): string {
  const pick = (names: string[]): Record<string, string> => Object.fromEntries(names.map((name) => [name, versions[name]]))
  return JSON.stringify({
    name: 'enclave-consumer',
    version: '1.0.0',
    private: true,
    scripts,
    dependencies: { enclave: `file:${tarball}`, ...pick(['tsyringe', 'reflect-metadata']) },
    devDependencies: pick(['typescript', '@types/node', 'mocha', '@types/mocha', 'supertest', '@types/supertest']),
  }, null, 2)
}

/** Never called: only compiled, to show that the installed types are real (an `any` would not error). */
export const typesProbe = `
import { createApp } from 'enclave'
import { createClient, defineContract } from 'enclave/client'

// An app's own decorations, as a Fastify port declares them: the shipped .d.ts (ScopeImpl
// implements Scope) must still check against them with skipLibCheck off.
declare module 'enclave' {
  interface ScopeDecorations { db: { list(): string[] } }
  interface RequestDecorations { user: { name: string } | null }
  interface ReplyDecorations { startedAt: number }
}

export function typesAreChecked(): void {
  // @ts-expect-error createApp() takes a module class
  void createApp('AppModule')
}

// The front end's entry: its types found under the README's tsconfig (node10 resolution reads
// typesVersions, not exports) and real (the marked call fails).
const api = defineContract({ note: { method: 'GET', url: '/notes/:id' } })
export async function clientTypesAreChecked(): Promise<void> {
  const client = createClient(api, { baseUrl: 'http://localhost:3000' })
  // @ts-expect-error the client's params are typed from the contract's url
  await client.note({ params: { noteId: '1' } })
}
`

/** A module that registers @fastify/multipart as docs/plugins.md shows, with a wrong option marked. */
export const multipartProbe = `
import multipart from '@fastify/multipart'
import { Module } from 'enclave'

@Module({ plugins: [[multipart, { limits: { fileSize: 1024 * 1024 } }]] })
export class UploadModule {}

// @ts-expect-error the plugin's own option types are still checked
@Module({ plugins: [[multipart, { limits: { fileSize: 'big' } }]] }) export class WrongUploadModule {}
`

/** Loaded with import: the exports map and Node's named-export detection for our CommonJS build. */
export const esmProbe = `
import { createApp, injectable, Module, errorCodeTable } from 'enclave'
console.log(JSON.stringify([typeof createApp, typeof injectable, typeof Module, Array.isArray(errorCodeTable)]))
`

/**
 * An ES module app (`"type": "module"`) of the scope API, compiled under NodeNext and bundler
 * resolution: the exports map's `types` condition must give real types (the marked line fails)
 * and the named imports must exist at run time (Node's detection of our CommonJS exports).
 */
export const esmApp = {
  'package.json': JSON.stringify({ name: 'esm-consumer', private: true, type: 'module' }),
  'tsconfig.json': JSON.stringify({
    // 2026's strict settings (docs/installation.md, "ESM and strict compiler settings"), the shipped .d.ts checked too.
    compilerOptions: {
      target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', verbatimModuleSyntax: true, strict: true, exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true, noImplicitOverride: true, noPropertyAccessFromIndexSignature: true, skipLibCheck: false, outDir: 'dist', types: ['node'],
    },
    include: ['src'],
  }),
  'tsconfig.bundler.json': JSON.stringify({ extends: './tsconfig.json', compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', noEmit: true } }),
  'src/main.ts': `
import { createServer, lift, type } from 'enclave'
import { hello } from './hello.js'

const user = lift(async (scope) => {
  scope.decorateRequest('user', null)
  scope.addHook('onRequest', async (request) => { request.user = { name: 'ada' } })
}, { name: 'user', provides: { request: { user: type<{ name: string }>() } } })

const params = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } as const
const app = createServer()
app.register(user).get('/hello/:name', { schema: { params } }, async (request) => ({ message: hello(request.params.name), by: request.user.name }))
export function neverCalled(): void {
  // @ts-expect-error createServer() is typed: a route needs a path
  app.get(42, async () => ({}))
}
const response = await app.inject({ url: '/hello/bob' })
console.log(JSON.stringify([response.statusCode, response.json()]))
await app.close()
`,
  'src/hello.ts': `export const hello = (name: string): string => \`hello \${name}\`\n`,
  // The sub-path's types under NodeNext and bundler resolution (the exports map's `types`); compiled, not run.
  'src/client.ts': `
import { createClient, defineContract } from 'enclave/client'
const api = defineContract({ note: { method: 'GET', url: '/notes/:id' } })
export async function neverCalledClient(): Promise<number> {
  // @ts-expect-error the client's params are typed from the contract's url
  await createClient(api, { baseUrl: 'http://localhost:3000' }).note({ params: { noteId: '1' } })
  return (await createClient(api, { baseUrl: 'http://localhost:3000' }).note({ params: { id: '1' } })).status
}
`,
}
