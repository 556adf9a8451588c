// Log lines and plugin-level options where Enclave had drifted from Fastify 3.27.4 (docs/operations.md, "Logs").
// Each expectation is the line Fastify 3.27.4 wrote for the same app and request in the
// side-by-side scenario runs (parity8; fields that vary per run, time, pid, hostname, ports
// and responseTime's value, left out).
import { expect } from 'chai'
import { Readable, Writable } from 'node:stream'
import { createServer, type RouteOptions, type Scope, type ServerOptions } from '../../src/runtime'

interface Line { level: number; msg?: string; reqId?: string; [key: string]: unknown }

function sink(): { stream: Writable; lines: Line[] } {
  const lines: Line[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const part of chunk.toString().split('\n')) if (part !== '') lines.push(JSON.parse(part) as Line)
      done()
    },
  })
  return { stream, lines }
}

/** A line without what varies per run, as the scenario tables compared them. */
function shape(line: Line): Record<string, unknown> {
  const { time: _t, pid: _p, hostname: _h, ...rest } = line
  const out: Record<string, unknown> = { ...rest }
  if ('responseTime' in out) out.responseTime = typeof out.responseTime
  if (out.err !== undefined) {
    const err = out.err as Record<string, unknown>
    out.err = { type: err.type, message: err.message, statusCode: err.statusCode, stack: typeof err.stack }
  }
  return out
}

async function logged(declare: (root: Scope) => void, urls: string[], options: ServerOptions = {}): Promise<Line[]> {
  const out = sink()
  const root = createServer({ logger: { level: 'info', stream: out.stream }, ...options })
  declare(root)
  await root.ready()
  for (const url of urls) await root.inject(url)
  await root.close()
  return out.lines
}

const req = (url: string) => ({ method: 'GET', url, hostname: 'localhost:80', remoteAddress: '127.0.0.1' })

describe('Fastify 3.27.4 parity: log lines', () => {
  it('listen() logs "Server listening at <address>", Fastify 3\'s line', async () => {
    const out = sink()
    const root = createServer({ logger: { stream: out.stream } })
    const address = await root.listen(0)
    await root.close()
    expect(out.lines.map(shape)).to.deep.equal([{ level: 30, msg: `Server listening at ${address}` }])
  })

  it('a 5xx logs its error at error level with req, res and err, then "request completed" at info', async () => {
    const lines = await logged((r) => r.get('/e500', async () => { throw new Error('boom') }), ['/e500'])
    expect(lines.map(shape)).to.deep.equal([
      { level: 30, reqId: 'req-1', req: req('/e500'), msg: 'incoming request' },
      { level: 50, reqId: 'req-1', req: req('/e500'), res: { statusCode: 500 }, err: { type: 'Error', message: 'boom', statusCode: undefined, stack: 'string' }, msg: 'boom' },
      { level: 30, reqId: 'req-1', res: { statusCode: 500 }, responseTime: 'number', msg: 'request completed' },
    ])
  })

  it('a 4xx logs its error at info with res and err (no req), its message as the message', async () => {
    const lines = await logged((r) => r.get('/e400', async () => { throw Object.assign(new Error('bad thing'), { statusCode: 400 }) }), ['/e400'])
    expect(shape(lines[1])).to.deep.equal({ level: 30, reqId: 'req-1', res: { statusCode: 400 }, err: { type: 'Error', message: 'bad thing', statusCode: 400, stack: 'string' }, msg: 'bad thing' })
  })

  it('a thrown plain object with a 4xx status is logged as the error, with its message', async () => {
    const lines = await logged((r) => r.get('/obj', async () => { throw { statusCode: 418, message: 'teapot' } }), ['/obj'])
    const line = lines[1]
    expect([line.level, line.res, (line.err as { message: string }).message, line.msg]).to.deep.equal([30, { statusCode: 418 }, 'teapot', 'teapot'])
  })

  it('with level warn, a 5xx writes only its error line: "request completed" is at info whatever the status', async () => {
    const out = sink()
    const root = createServer({ logger: { level: 'warn', stream: out.stream } })
    root.get('/e500', async () => { throw new Error('boom') })
    await root.inject('/e500')
    await root.close()
    expect(out.lines.map((l) => [l.level, l.msg])).to.deep.equal([[50, 'boom']])
  })

  it('the error line comes before the onError hooks run, and an onSend hook that fails again on the error reply does not log it twice', async () => {
    const lines = await logged((r) => {
      r.register(async (s) => {
        s.addHook('onError', async (request, _reply, error) => { request.log.warn({ seen: error.message }, 'onError saw') })
        s.get('/oe', async () => { throw new Error('oe') })
      })
      r.register(async (s) => {
        s.addHook('onSend', async () => { throw new Error('onsend boom') })
        s.get('/os', async () => 'x')
      })
    }, ['/oe', '/os'])
    expect(lines.map((l) => [l.reqId, l.level, l.msg])).to.deep.equal([
      ['req-1', 30, 'incoming request'], ['req-1', 50, 'oe'], ['req-1', 40, 'onError saw'], ['req-1', 30, 'request completed'],
      ['req-2', 30, 'incoming request'], ['req-2', 50, 'onsend boom'], ['req-2', 30, 'request completed'],
    ])
  })

  it('"request completed" comes after the onResponse hooks (what they log first); a failing one gives "request errored" with err in its place', async () => {
    const lines = await logged((r) => {
      r.register(async (s) => {
        s.addHook('onResponse', async (request) => { request.log.info('metrics') })
        s.get('/ok', async () => 'x')
      })
      r.register(async (s) => {
        s.addHook('onResponse', async () => { throw new Error('r1') })
        s.get('/fails', async () => 'x')
      })
    }, ['/ok', '/fails'])
    expect(lines.map(shape)).to.deep.equal([
      { level: 30, reqId: 'req-1', req: req('/ok'), msg: 'incoming request' },
      { level: 30, reqId: 'req-1', msg: 'metrics' },
      { level: 30, reqId: 'req-1', res: { statusCode: 200 }, responseTime: 'number', msg: 'request completed' },
      { level: 30, reqId: 'req-2', req: req('/fails'), msg: 'incoming request' },
      { level: 50, reqId: 'req-2', res: { statusCode: 200 }, err: { type: 'Error', message: 'r1', statusCode: undefined, stack: 'string' }, responseTime: 'number', msg: 'request errored' },
    ])
  })

  it('a response stream that fails before its first byte is logged once, by the error reply', async () => {
    const lines = await logged((r) => r.get('/s', async (_req, reply) => reply.send(new Readable({ read() { this.destroy(new Error('stream broke')) } }))), ['/s'])
    expect(lines.map((l) => [l.level, l.msg])).to.deep.equal([[30, 'incoming request'], [50, 'stream broke'], [30, 'request completed']])
  })
})

describe('Fastify 3.27.4 parity: plugin-level logLevel and what onRoute sees', () => {
  it('register(plugin, { logLevel }) sets the level of the plugin\'s routes; a route\'s own logLevel wins', async () => {
    const lines = await logged((r) => {
      r.register(async (s) => {
        s.get('/quiet', async (request) => { request.log.info('info in plugin'); request.log.error('error in plugin'); return 'q' })
        s.get('/own', { logLevel: 'info' }, async (request) => { request.log.info('info with own level'); return 'o' })
        s.register(async (t) => { t.get('/nested', async (request) => { request.log.warn('warn nested'); return 'n' }) })
      }, { logLevel: 'error' })
    }, ['/quiet', '/own', '/nested'])
    expect(lines.map((l) => l.msg)).to.deep.equal(['error in plugin', 'incoming request', 'info with own level', 'request completed'])
  })

  it('onRoute hooks see logLevel (\'\' when none, else the route\'s or its plugin\'s) and attachValidation false, as in Fastify 3', async () => {
    const seen: Array<[unknown, unknown, unknown]> = []
    const root = createServer()
    root.addHook('onRoute', (route: RouteOptions) => { seen.push([route.url, route.logLevel, route.attachValidation]) })
    root.get('/plain', async () => 'p')
    root.get('/own', { logLevel: 'warn', attachValidation: true }, async () => 'o')
    root.register(async (s) => { s.get('/in', async () => 'i') }, { prefix: '/p', logLevel: 'debug' })
    await root.ready()
    await root.close()
    expect(seen).to.deep.equal([['/plain', '', false], ['/own', 'warn', true], ['/p/in', 'debug', false]])
  })
})

describe('Fastify 3.27.4 parity: logSerializers (route option and register option)', () => {
  it('a route\'s logSerializers shape its request log lines, over its plugin\'s', async () => {
    const lines = await logged((r) => {
      r.get('/route', { logSerializers: { user: (u: { name: string }) => `U:${u.name}` } }, async (request) => { request.log.info({ user: { name: 'n' } }, 'u'); return 'x' })
      r.register(async (s) => {
        s.get('/plugin', async (request) => { request.log.info({ user: { name: 'n' }, team: { id: 7 } }, 'u'); return 'x' })
        s.get('/both', { logSerializers: { team: () => 'route team' } }, async (request) => { request.log.info({ user: { name: 'n' }, team: { id: 7 } }, 'u'); return 'x' })
      }, { logSerializers: { user: (u: { name: string }) => `P:${u.name}`, team: (t: { id: number }) => `T${t.id}` } })
      r.get('/none', async (request) => { request.log.info({ user: { name: 'n' } }, 'u'); return 'x' })
    }, ['/route', '/plugin', '/both', '/none'])
    expect(lines.filter((l) => l.msg === 'u').map((l) => [l.user, l.team])).to.deep.equal([
      ['U:n', undefined], ['P:n', 'T7'], ['P:n', 'route team'], [{ name: 'n' }, undefined],
    ])
  })

  it('a logSerializers option that is not an object of functions is refused at declaration', () => {
    const root = createServer()
    expect(() => root.get('/x', { logSerializers: { user: 'no' } as never }, async () => 'x')).to.throw(/logSerializers option must be an object of functions/)
  })

  it("register()'s prefix, logLevel or logSerializers of the wrong type fails boot with ENC_ERR_PLUGIN_OPTIONS naming the plugin and the scope (was silently dropped)", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ logSerializers: { user: 'no' } }, /logSerializers option must be an object of functions/],
      [{ logSerializers: [] }, /logSerializers option must be an object of functions/],
      [{ logLevel: 'wran' }, /logLevel option is "wran" \(did you mean 'warn'\?\)/],
      [{ logLevel: 30 }, /logLevel option is "number"/],
      [{ prefix: 5 }, /prefix option must be a string, got number/],
    ]
    for (const [options, message] of cases) {
      const root = createServer()
      root.register(async function users(s: Scope) { s.get('/u', async () => 'x') }, options)
      const error = await root.ready().then(() => null, (e: Error & { code?: string }) => e)
      expect(error?.code, JSON.stringify(options)).to.equal('ENC_ERR_PLUGIN_OPTIONS')
      expect(error?.message).to.match(message).and.to.contain('register(users) in root')
    }
    const fine = createServer()
    fine.register(async (s: Scope) => { s.get('/u', async () => 'x') }, { prefix: '/v1', logLevel: 'warn', logSerializers: { user: String } })
    fine.register(async (s: Scope) => { s.get('/w', async () => 'x') }, { logLevel: '' })
    await fine.ready()
    await fine.close()
  })

  it("register()'s logLevel, logSerializers or prefix given as null read as not set, as in Fastify 3 (a config value left null does not fail boot)", async () => {
    const app = createServer()
    app.register(async (s: Scope) => { s.get('/u', async () => 'u') }, { logLevel: null, logSerializers: null, prefix: null } as never)
    await app.ready()
    expect((await app.inject({ url: '/u' })).body).to.equal('u')
    await app.close()
  })
})
