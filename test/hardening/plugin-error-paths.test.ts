// Plugins defer their failures to the scope's error handler through Fastify's `errorHandler`
// getter (@fastify/static does for every `send` error: a NUL byte, a traversal send refuses, an
// unsatisfiable range). Without the getter the deferral was a TypeError, and its message went
// out in the 4xx: `{ "statusCode": 400, "message": "fastify.errorHandler is not a function" }`.
import { expect } from 'chai'
import fastifyStatic from '@fastify/static'
import { expectErrorShape, server } from './helpers'
import { fixture } from '../ecosystem/helpers'
import type { ErrorHandler } from '../../src/runtime'

describe('hardening: plugin error paths', () => {
  describe('@fastify/static: a path or range send refuses answers with its own status and reason, nothing internal', () => {
    const cases: ReadonlyArray<readonly [string, string, Record<string, string>, number, string]> = [
      ['a NUL byte in the path', '/public/hello.txt%00.png', {}, 400, 'Bad Request'],
      ['an encoded backslash climbing out of the root', '/public/..%5chello.txt', {}, 403, 'Forbidden'],
      ['an unsatisfiable range', '/public/hello.txt', { range: 'bytes=5-1' }, 416, 'Range Not Satisfiable'],
    ]
    for (const [label, url, headers, status, reason] of cases) {
      it(`${label}: ${status} '${reason}'`, async () => {
        const app = server()
        await app.register(fastifyStatic, { root: fixture('public'), prefix: '/public/' })
        const res = await app.inject({ url, headers })
        expect(res.statusCode).to.equal(status)
        expect(expectErrorShape(res.body, status).message).to.equal(reason)
        expect(res.body).to.not.contain('errorHandler')
      })
    }

    it('with a scope error handler set, that handler answers the refused request', async () => {
      const app = server()
      app.setErrorHandler(async (error, _request, reply) => reply.code(error.statusCode ?? 500).send({ handled: error.statusCode }))
      await app.register(fastifyStatic, { root: fixture('public'), prefix: '/public/' })
      const res = await app.inject({ url: '/public/hello.txt%00' })
      expect(res.statusCode).to.equal(400)
      expect(JSON.parse(res.body)).to.deep.equal({ handled: 400 })
    })
  })

  describe('scope.errorHandler: the handler a scope\'s routes fall back to', () => {
    it('is the scope\'s own handler, else the nearest ancestor\'s', async () => {
      const app = server()
      const rootHandler: ErrorHandler = async () => 'root'
      const ownHandler: ErrorHandler = async () => 'own'
      app.setErrorHandler(rootHandler)
      let inherited: ErrorHandler | undefined
      let own: ErrorHandler | undefined
      await app.register(async (child) => {
        inherited = child.errorHandler
        await child.register(async (grandchild) => { grandchild.setErrorHandler(ownHandler); own = grandchild.errorHandler })
      })
      await app.ready()
      // Bound to the scope that set it, as in Fastify: the same handler, not the same function object.
      const run = (handler: ErrorHandler | undefined): unknown => (handler as (...args: unknown[]) => unknown)(new Error('x'), {}, {})
      expect(await run(inherited)).to.equal('root')
      expect(await run(own)).to.equal('own')
      expect(await run(app.errorHandler)).to.equal('root')
    })

    it('called unbound (taken off the getter), the handler still runs with this = the scope that set it, as Fastify binds it', async () => {
      const app = server()
      let self: unknown
      app.setErrorHandler(function (this: unknown, error, _request, reply) { self = this; reply.code(409).send({ message: error.message }) })
      await app.register(async (child) => {
        child.get('/x', {
          errorHandler(error, request, reply) { const handler = child.errorHandler as unknown as (...args: unknown[]) => unknown; return handler(error, request, reply) },
        }, async () => { throw new Error('taken off the getter') })
      })
      const res = await app.inject({ url: '/x' })
      expect(res.statusCode).to.equal(409)
      expect(JSON.parse(res.body).message).to.equal('taken off the getter')
      expect(self).to.equal(app)
    })

    it('where no scope set one, a route errorHandler deferring to it gets the built-in reply (the error\'s status and message)', async () => {
      const app = server()
      app.get('/x', {
        errorHandler(this: typeof app, error, request, reply) { return this.errorHandler.call(this, error, request, reply) },
      }, async () => { throw Object.assign(new Error('no such note'), { statusCode: 404 }) })
      const res = await app.inject({ url: '/x' })
      expect(res.statusCode).to.equal(404)
      expect(JSON.parse(res.body)).to.deep.equal({ statusCode: 404, error: 'Not Found', message: 'no such note' })
    })
  })
})
