import { expect } from 'chai'
import request from 'supertest'
import fastifyEnv from '@fastify/env'
import { createServer, type Request, type Scope } from '../../src/runtime'
import { track } from '../support/servers'
import { affected, modes, topology, unaffected } from './helpers'

interface Config { PORT: number; NAME: string; DEBUG: boolean }
type EnvScope = Scope & { config?: Config; settings?: Config; getEnvs?(): Config }

const schema = {
  type: 'object',
  required: ['PORT', 'NAME'],
  properties: { PORT: { type: 'number', default: 3000 }, NAME: { type: 'string' }, DEBUG: { type: 'boolean', default: false } },
}
// `data` instead of process.env keeps the test independent of the machine; dotenv stays off.
const options = { schema, data: { PORT: '8080', NAME: 'enclave', DEBUG: 'true' }, dotenv: false }

// @fastify/env README: the environment validated against a JSON schema (coerced, defaults filled)
// becomes `fastify.config` (or `confKey`), with `fastify.getEnvs()` / `request.getEnvs()`;
// an invalid environment fails boot with the schema's message.
describe('@fastify/env in Enclave', () => {
  for (const mode of modes) {
    it(`decorates the validated, coerced config in the registering context and its descendants only (${mode})`, async () => {
      const probe = async (req: Request) => {
        const server = req.server as EnvScope
        if (server.config === undefined) return { config: null }
        return { config: server.config, same: (req as Request & { getEnvs(): Config }).getEnvs() === server.getEnvs!() }
      }
      const app = await topology(mode, { plugin: fastifyEnv, options, probe })
      for (const path of affected) await request(app.server).get(path).expect(200, { config: { PORT: 8080, NAME: 'enclave', DEBUG: true }, same: true })
      for (const path of unaffected) await request(app.server).get(path).expect(200, { config: null })
    })
  }

  it('uses confKey and the schema defaults, and is available to what the scope declares next', async () => {
    const app = track(createServer())
    await app.register(fastifyEnv, { schema, confKey: 'settings', data: { NAME: 'x' } })
    const settings = (app as EnvScope).settings!
    expect(settings).to.deep.equal({ PORT: 3000, NAME: 'x', DEBUG: false })
    app.get('/port', async () => ({ port: settings.PORT }))
    await app.ready()
    await request(app.server).get('/port').expect(200, { port: 3000 })
  })

  it('fails boot with the schema\'s message for a missing or mistyped variable', async () => {
    for (const [data, message] of [[{ PORT: '1' }, "env must have required property 'NAME'"], [{ NAME: 'x', PORT: 'eighty' }, 'env/PORT must be number']] as const) {
      const app = track(createServer())
      app.register(fastifyEnv, { schema, data })
      let error: Error | undefined
      try { await app.ready() } catch (e) { error = e as Error }
      expect(error?.message).to.equal(message)
    }
  })
})
