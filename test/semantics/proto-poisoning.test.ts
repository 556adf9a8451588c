// Issue 12 §3: the server options onProtoPoisoning / onConstructorPoisoning of Fastify 3.27.4
// (test/proto-poisoning.test.js), secure-json-parse's protoAction / constructorAction.
import { expect } from 'chai'
import type { Request, Scope, ServerOptions } from '../../src'
import { build, server, thrown } from '../runtime/helpers'

const proto = '{ "__proto__": { "a": 42 }, "b": 42 }'
const ctor = '{ "constructor": { "prototype": { "a": 42 } }, "b": 42 }'

/** A server whose handler reports what reached it: own keys, and what Object.assign makes of it. */
function reporting(options: ServerOptions): Promise<Scope> {
  return build((root) => {
    root.post('/', async (req: Request) => {
      const body = req.body as Record<string, unknown>
      const copy = Object.assign({}, body) as Record<string, unknown>
      return { keys: Object.keys(body), assignedA: copy.a ?? null, b: body.b }
    })
  }, options)
}

const send = (app: Scope, payload: string) => app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload })

describe('semantics: proto poisoning options (issue 12 §3)', () => {
  it("refuses __proto__ and constructor.prototype keys by default ('error'): 400 with a coded message", async () => {
    const app = await reporting({})
    for (const payload of [proto, ctor]) {
      const res = await send(app, payload)
      expect(res.statusCode).to.equal(400)
      expect(res.json()).to.deep.equal({ statusCode: 400, code: 'ENC_ERR_CTP_FORBIDDEN_PROTO', error: 'Bad Request', message: 'Object contains forbidden prototype property' })
    }
  })

  it("onProtoPoisoning: 'remove' drops the __proto__ key and keeps the rest", async () => {
    const app = await reporting({ onProtoPoisoning: 'remove' })
    expect((await send(app, proto)).json()).to.deep.equal({ keys: ['b'], assignedA: null, b: 42 })
    expect((await send(app, ctor)).statusCode).to.equal(400)
  })

  it("onProtoPoisoning: 'ignore' keeps __proto__ as an own key (Object.assign then sets a prototype)", async () => {
    const app = await reporting({ onProtoPoisoning: 'ignore' })
    expect((await send(app, proto)).json()).to.deep.equal({ keys: ['__proto__', 'b'], assignedA: 42, b: 42 })
  })

  it("onConstructorPoisoning: 'remove' drops the constructor key; 'ignore' keeps it", async () => {
    const removing = await reporting({ onConstructorPoisoning: 'remove' })
    expect((await send(removing, ctor)).json()).to.deep.equal({ keys: ['b'], assignedA: null, b: 42 })
    expect((await send(removing, proto)).statusCode).to.equal(400)
    const ignoring = await reporting({ onConstructorPoisoning: 'ignore' })
    expect((await send(ignoring, ctor)).json()).to.deep.equal({ keys: ['constructor', 'b'], assignedA: null, b: 42 })
  })

  it("both 'ignore' parse as JSON.parse does, escaped spellings included", async () => {
    const app = await reporting({ onProtoPoisoning: 'ignore', onConstructorPoisoning: 'ignore' })
    expect((await send(app, '{"\\u005f_proto__":{"a":1},"b":1}')).json()).to.deep.equal({ keys: ['__proto__', 'b'], assignedA: 1, b: 1 })
  })

  it('the escaped spelling of __proto__ is removed too', async () => {
    const app = await reporting({ onProtoPoisoning: 'remove' })
    expect((await send(app, '{"\\u005f_proto__":{"a":1},"b":1}')).json()).to.deep.equal({ keys: ['b'], assignedA: null, b: 1 })
  })

  it('a misspelt action is refused at createServer (secure-json-parse would take it as ignore)', () => {
    const error = thrown(() => server({ onProtoPoisoning: 'remvoe' as never }))
    expect(error.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
    expect(error.message).to.contain("onProtoPoisoning: 'remvoe'").and.to.contain("'remove'")
    expect(thrown(() => server({ onConstructorPoisoning: true as never })).code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
  })

  it('getDefaultJsonParser takes its own actions, not the server options', async () => {
    const app = await build((root) => {
      root.addContentTypeParser('application/x-json', { parseAs: 'string' }, root.getDefaultJsonParser('remove', 'error'))
      root.post('/', async (req: Request) => ({ keys: Object.keys(req.body as object) }))
    }, { onProtoPoisoning: 'ignore' })
    const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/x-json' }, payload: proto })
    expect(res.json()).to.deep.equal({ keys: ['b'] })
    expect((await send(app, proto)).json()).to.deep.equal({ keys: ['__proto__', 'b'] })
  })
})
