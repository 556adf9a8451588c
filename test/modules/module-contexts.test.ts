import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import { injectable } from 'tsyringe'
import { DecorateReply, DecorateRequest, ErrorHandler, Get, Hook, Module, Route, Schema, type Class } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { HttpError, lift, type Reply, type Request, type Scope } from '../../src/runtime'

declare module '../../src/runtime' {
  interface RequestDecorations { mine: string; bag: unknown; shared: unknown; answer: number }
  interface ReplyDecorations { signature: string }
}

/** A controller at `path` answering what the request can see. */
function probe(path: string, read: (request: Request, reply: Reply) => unknown = () => ({ ok: true })): Class {
  @Route() class Probe { @Get(path) get(request: Request, reply: Reply) { return read(request, reply) } }
  return Probe
}
const fail = (message: string) => probe('/fail', () => { throw new HttpError(409, message) })

describe('modules map onto encapsulation contexts (§3.3)', () => {
  let app: Scope
  afterEach(async () => { await app?.close() })

  it('names each module\'s scope after its class: Root > Child > plugin', async () => {
    const paths: string[] = []
    const recorder = async function recorder(scope: Scope) { paths.push(scope.path) }
    @Module({ plugins: [recorder] }) class Child {}
    @Module({ plugins: [Child, recorder] }) class Root {}
    app = await createApp(Root)
    expect(app.path).to.equal('Root')
    expect(paths).to.have.members(['Root > recorder', 'Root > Child > recorder'])
  })

  it('prefixes: module prefixes nest, a root prefix applies to everything, a lifted module carries its own', async () => {
    const plugin = async (scope: Scope) => { scope.get('/plain', async () => ({ r: 'plain' })) }
    @Module({ controllers: [probe('/g', () => ({ r: 'grandchild' }))], prefix: '/g' }) class Grandchild {}
    @Module({ controllers: [probe('/l', () => ({ r: 'lifted' }))], plugins: [Grandchild, [plugin, { prefix: '/p' }]], prefix: '/lifted' }) class Lifted {}
    @Module({ controllers: [probe('/c', () => ({ r: 'child' }))], plugins: [lift(Lifted)], prefix: '/child' }) class Child {}
    @Module({ controllers: [probe('/r', () => ({ r: 'root' }))], plugins: [Child], prefix: '/api' }) class Root {}
    app = await createApp(Root)
    await request(app.server).get('/api/r').expect(200, { r: 'root' })
    await request(app.server).get('/api/child/c').expect(200, { r: 'child' })
    await request(app.server).get('/api/child/lifted/l').expect(200, { r: 'lifted' })
    await request(app.server).get('/api/child/lifted/g/g').expect(200, { r: 'grandchild' })
    await request(app.server).get('/api/child/lifted/p/plain').expect(200, { r: 'plain' })
  })

  it('§3.3.6 request decorators: visible in the module and below, undefined in parents and siblings', async () => {
    const read = (request: Request) => ({ mine: request.mine ?? null })
    @DecorateRequest('mine', 'child') @Module({ controllers: [probe('/child', read)], prefix: '/c' }) class Child {}
    @Module({ controllers: [probe('/sibling', read)], prefix: '/s' }) class Sibling {}
    @Module({ controllers: [probe('/root', read)], plugins: [Child, Sibling] }) class Root {}
    app = await createApp(Root)
    await request(app.server).get('/c/child').expect(200, { mine: 'child' })
    await request(app.server).get('/s/sibling').expect(200, { mine: null })
    await request(app.server).get('/root').expect(200, { mine: null })
  })

  it('@DecorateRequest factory form: a fresh value per request; @DecorateReply on the reply', async () => {
    @DecorateRequest('bag', { factory: () => ({ items: [] as number[] }) })
    @DecorateReply('signature', 'enclave')
    @Module({ controllers: [probe('/bag', (request, reply) => {
      const bag = request.bag as { items: number[] }
      bag.items.push(1)
      return { items: bag.items, signature: reply.signature }
    })] })
    class Root {}
    app = await createApp(Root)
    await request(app.server).get('/bag').expect(200, { items: [1], signature: 'enclave' })
    await request(app.server).get('/bag').expect(200, { items: [1], signature: 'enclave' })
  })

  it('@Hook: runs for the module and its descendants, ancestors first, with this = the module instance', async () => {
    @injectable() class Trail { readonly steps: string[] = [] }
    const read = (request: Request) => ({ seen: request.headers['x-seen'] })
    @Module({ controllers: [probe('/child', read)], prefix: '/c' })
    class Child { @Hook('onRequest') mark(request: Request) { request.headers['x-seen'] += ',child' } }
    @Module({ controllers: [probe('/sibling', read)], prefix: '/s' }) class Sibling {}
    @Module({ providers: [Trail], plugins: [Child, Sibling], controllers: [probe('/trail', () => ({}))] })
    class Root {
      constructor(private readonly trail: Trail) {}
      @Hook('onRequest') mark(request: Request) { request.headers['x-seen'] = 'root' }
      // Callback style: a `done` parameter, kept through binding.
      @Hook('preHandler') record(request: Request, _reply: Reply, done: () => void) { this.trail.steps.push(request.url); done() }
      @Hook('onSend') async stamp(_request: Request, reply: Reply) { reply.header('x-steps', String(this.trail.steps.length)) }
    }
    app = await createApp(Root)
    await request(app.server).get('/c/child').expect('x-steps', '1').expect(200, { seen: 'root,child' })
    await request(app.server).get('/s/sibling').expect('x-steps', '2').expect(200, { seen: 'root' })
  })

  it('@Hook(\'onClose\') runs when the app closes', async () => {
    const closed: string[] = []
    @Module() class Root { @Hook('onClose') async close() { closed.push('root') } }
    const booted = await createApp(Root)
    await booted.close()
    expect(closed).to.deep.equal(['root'])
  })

  it('@ErrorHandler: handles the module\'s and its descendants\' errors, with this = the module; siblings keep the default', async () => {
    @Module({ controllers: [fail('child')], prefix: '/c' }) class Child {}
    @Module({ controllers: [fail('sibling')], prefix: '/s' }) class Sibling {}
    @Module({ plugins: [Child], prefix: '/h' })
    class Handling {
      readonly label = 'handled'
      @ErrorHandler() onError(error: Error, _request: Request, reply: Reply) { reply.code(418).send({ label: this.label, message: error.message }) }
    }
    @Module({ plugins: [Handling, Sibling] }) class Root {}
    app = await createApp(Root)
    await request(app.server).get('/h/c/fail').expect(418, { label: 'handled', message: 'child' })
    await request(app.server).get('/s/fail').expect(409, { statusCode: 409, error: 'Conflict', message: 'sibling' })
  })

  it('§3.3.4 schemas: a module\'s shared schemas are visible to its descendants\' routes', async () => {
    @Schema({ $id: 'point', type: 'object', properties: { x: { type: 'integer' } } }) class Point {}
    @Route() class Uses {
      @Get('/point', { schema: { querystring: { $ref: 'point#' }, response: { 200: { $ref: 'point#' } } } })
      get(request: Request) { return { ...request.query, extra: 1 } }
    }
    @Module({ controllers: [Uses] }) class Child {}
    @Module({ schemas: [Point, { $id: 'inline', type: 'string' }], plugins: [Child] }) class Root {}
    app = await createApp(Root)
    await request(app.server).get('/point?x=3').expect(200, { x: 3 })
    await request(app.server).get('/point?x=a').expect(400)
    expect(Object.keys(app.getSchemas())).to.have.members(['point', 'inline'])
  })

  it('module options set the context\'s validator compiler, serializer compiler and schema error formatter', async () => {
    const schema = { querystring: { type: 'object', properties: { n: { type: 'integer' } } }, response: { 200: { type: 'object', properties: { n: {} } } } }
    const read = (request: Request) => ({ n: request.query.n })
    @Route() class Custom { @Get('/custom', { schema }) get(request: Request) { return read(request) } }
    @Route() class Default { @Get('/default', { schema }) get(request: Request) { return read(request) } }
    @Module({
      controllers: [Custom],
      validatorCompiler: () => {
        const validate = Object.assign((data: unknown) => {
          validate.errors = (data as { n?: string }).n === 'ok' ? null : [{ keyword: 'custom', dataPath: '/n', message: 'must be ok', params: {} }]
          return validate.errors === null
        }, { errors: null as unknown })
        return validate
      },
      serializerCompiler: () => (data: unknown) => `custom:${JSON.stringify(data)}`,
      schemaErrorFormatter: (_errors: unknown[], dataVar: string) => new Error(`custom formatter for ${dataVar}`),
    }) class CustomModule {}
    @Module({ controllers: [Default] }) class DefaultModule {}
    @Module({ plugins: [CustomModule, DefaultModule] }) class Root {}
    app = await createApp(Root)
    const ok = await app.inject('/custom?n=ok')
    expect([ok.statusCode, ok.body]).to.deep.equal([200, 'custom:{"n":"ok"}'])
    const bad = await request(app.server).get('/custom?n=bad').expect(400)
    expect(bad.body.message).to.equal('custom formatter for querystring')
    await request(app.server).get('/default?n=5').expect(200, { n: 5 })
  })

  it('plain plugin entries run in the module\'s scope, in order; a lifted one shares the module\'s scope', async () => {
    const order: string[] = []
    const first = async function first(scope: Scope) { order.push(`first in ${scope.path}`) }
    const shared = lift(async function shared(scope: Scope) { scope.decorateRequest('shared', 'yes') })
    const second = async function second(scope: Scope, opts: { tag?: string }) { order.push(`second(${opts.tag}) in ${scope.path}`) }
    @Module({ plugins: [first, shared, [second, { tag: 't' }]], controllers: [probe('/shared', (r) => ({ shared: r.shared }))] }) class Root {}
    app = await createApp(Root)
    expect(order).to.deep.equal(['first in Root > first', 'second(t) in Root > second'])
    await request(app.server).get('/shared').expect(200, { shared: 'yes' })
  })

  it('the same module class in two places is two independent modules', async () => {
    let instances = 0
    @injectable() class Local { readonly n = ++instances }
    @Route() class Reader { constructor(private readonly local: Local) {} @Get('/n') get() { return { n: this.local.n } } }
    @Module({ providers: [Local], controllers: [Reader] }) class Reused {}
    @Module({ plugins: [Reused], prefix: '/a' }) class A {}
    @Module({ plugins: [Reused], prefix: '/b' }) class B {}
    @Module({ plugins: [A, B] }) class Root {}
    app = await createApp(Root)
    const a = (await request(app.server).get('/a/n').expect(200)).body.n
    const b = (await request(app.server).get('/b/n').expect(200)).body.n
    expect(a).to.not.equal(b)
  })

  it('returns the booted root scope: inject, listen and every runtime operation work on it', async () => {
    @DecorateRequest('answer', 42) @Module({ controllers: [probe('/answer', (r) => ({ answer: r.answer }))] }) class Root {}
    app = await createApp(Root)
    expect((await app.inject('/answer')).json()).to.deep.equal({ answer: 42 })
    expect(app.hasRequestDecorator('answer')).to.equal(true)
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    await request(address).get('/answer').expect(200, { answer: 42 })
  })
})
