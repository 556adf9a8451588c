// Fastify 3's deprecated request.req, reply.res and request.connection still work there, with a
// FastifyDeprecation warning each: a Fastify 3 app that reads them must not get a TypeError (500).
import { spawnSync } from 'node:child_process'
import { expect } from 'chai'

/**
 * Runs `app` (a script given `createServer`, `warnings` and `done(body)`) in a child process, since
 * the warnings are once per process and this one may have emitted them already; returns what `done` got and the warnings.
 */
function inFreshProcess(app: string): unknown {
  const script = `
      const warnings = []
      process.on('warning', (w) => warnings.push(w.name + ':' + w.code))
      const { createServer } = require(${JSON.stringify(require.resolve('../../src'))})
      const done = (body) => setImmediate(() => process.stdout.write(JSON.stringify({ body, warnings })))
      ${app}`
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 })
  return JSON.parse(child.stdout)
}

describe('Fastify 3 deprecated aliases: request.req, reply.res, request.connection', () => {
  it('are request.raw, reply.raw and request.socket, each emitting its FastifyDeprecation warning (FSTDEP001, FSTDEP002, FSTDEP005) once per process', () => {
    const app = `
      const app = createServer()
      app.get('/', (request, reply) => {
        reply.send({
          req: request.req === request.raw && request.req === request.raw,
          res: reply.res === reply.raw && reply.res === reply.raw,
          connection: request.connection === request.socket && request.connection === request.socket,
        })
      })
      app.inject('/').then((res) => app.inject('/').then(() => done(res.json())))`
    expect(inFreshProcess(app)).to.deep.equal({
      body: { req: true, res: true, connection: true },
      warnings: ['FastifyDeprecation:FSTDEP001', 'FastifyDeprecation:FSTDEP002', 'FastifyDeprecation:FSTDEP005'],
    })
  })
})

describe('Fastify 3 legacy preParsing hook (request, reply, done)', () => {
  it('still runs, and emits the FastifyDeprecation warning FSTDEP004 once per process', () => {
    const app = `
      const app = createServer()
      app.addHook('preParsing', function (request, reply, done) { done() })
      app.addHook('preParsing', async function (request, reply) {})
      app.get('/', (request, reply) => { reply.send('OK') })
      app.inject('/').then((res) => done(res.body))`
    expect(inFreshProcess(app)).to.deep.equal({ body: 'OK', warnings: ['FastifyDeprecation:FSTDEP004'] })
  })
})
