// fastify 5 with its defaults (ajv 8, fast-json-stringify 6): what a new project picks today.
import fastify, { FastifyInstance } from 'fastify5'
import Ajv from 'ajv8'
import { itemsSchema } from './schemas'
import { declareFastifyRoutes, type FastifyRoutes } from './fastify-routes'
import { STRICT_PATH } from './all-errors'
import { ajv8AllErrorsOptions } from './ajv-options'
import { HOST, portFromArgv, announceReady, failStart } from './ready-line'

/** The allErrors scope: a child plugin with its own ajv, as fastify 5 users declare one. */
async function strictScope(scope: FastifyInstance): Promise<void> {
  const ajv = new Ajv(ajv8AllErrorsOptions)
  scope.setValidatorCompiler(({ schema }) => ajv.compile(schema))
  scope.post(STRICT_PATH, { schema: itemsSchema }, async (request, reply) => {
    reply.code(201)
    return request.body
  })
}

async function main(): Promise<void> {
  const app = fastify({ logger: false })
  declareFastifyRoutes(app as unknown as FastifyRoutes)
  app.register(strictScope)
  await app.listen({ port: portFromArgv(), host: HOST })
  announceReady(app.server.address())
}

main().catch(failStart)
