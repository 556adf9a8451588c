import { expect } from 'chai'
import request from 'supertest'
import { fp } from '../support/scope-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { modes, topology } from './helpers'
import type { Scope } from '../../src/runtime'

type SwaggerScope = Scope & { swagger(): { openapi: string; info: object; paths: Record<string, Record<string, unknown>> } }

// @fastify/swagger README: `await register(swagger, { openapi })` collects every route declared
// after it (onRoute) into an OpenAPI document returned by fastify.swagger() once ready;
// @fastify/swagger-ui serves the UI at routePrefix and the document at `${routePrefix}/json`.
const docs = fp(async function docs(scope: Scope) {
  await scope.register(swagger, { openapi: { info: { title: 'Enclave API', version: '1.0.0' } } })
  await scope.register(swaggerUi, { routePrefix: '/documentation' })
})

describe('@fastify/swagger and @fastify/swagger-ui in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('documents the routes of the registering context and its descendants, and only those', async () => {
        let scope: SwaggerScope | null = null
        const app = await topology(mode, { plugin: docs, inside: (s) => { scope = s as SwaggerScope } })
        const spec = scope!.swagger()
        expect(spec.openapi).to.match(/^3\./)
        expect(spec.info).to.deep.equal({ title: 'Enclave API', version: '1.0.0' })
        expect(spec.paths).to.include.keys('/inside/probe', '/inside/child/probe')
        expect(spec.paths['/inside/probe']).to.include.keys('get', 'post')
        expect(spec.paths).to.not.have.any.keys('/root-probe', '/outside/probe', '/inside/documentation/json')
        void app
      })

      it('serves the UI and the JSON document under routePrefix, inside the registering context\'s prefix', async () => {
        const app = await topology(mode, { plugin: docs })
        const json = await request(app.server).get('/inside/documentation/json').expect(200)
        expect(json.body.info.title).to.equal('Enclave API')
        expect(json.body.paths).to.include.keys('/inside/probe')
        const html = await request(app.server).get('/inside/documentation').expect(200)
        expect(html.headers['content-type']).to.match(/^text\/html/)
        expect(html.text).to.include('swagger-ui')
        // swagger-ui's own static files, served by the @fastify/static it registers inside.
        const script = await request(app.server).get('/inside/documentation/static/swagger-initializer.js').expect(200)
        expect(script.text).to.include('SwaggerUIBundle')
        await request(app.server).get('/documentation/json').expect(404)
      })

      it('refuses @fastify/swagger-ui without @fastify/swagger: its plugin-meta dependency is checked at boot', async () => {
        let error: (Error & { code?: string }) | null = null
        try {
          await topology(mode, { plugin: swaggerUi })
        } catch (e) {
          error = e as Error & { code?: string }
        }
        expect(error?.code).to.equal('ENC_ERR_PLUGIN_DEPENDENCY')
        expect(error?.message).to.include("'@fastify/swagger'")
      })
    })
  }
})
