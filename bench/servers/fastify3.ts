// fastify 3.27.4 with its defaults (ajv 6, fast-json-stringify): the reference contender.
import fastify, { FastifyInstance } from 'fastify3'
import Ajv from 'ajv'
import { itemsSchema } from './schemas'
import { declareFastifyRoutes, type FastifyRoutes } from './fastify-routes'
import { STRICT_PATH } from './all-errors'
import { ajv6AllErrorsOptions } from './ajv-options'
import { HOST, portFromArgv, announceReady, failStart } from './ready-line'

/** The allErrors scope: a child plugin with its own ajv, as fastify 3 users declare one. */
async function strictScope(scope: FastifyInstance): Promise<void> {
  const ajv = new Ajv(ajv6AllErrorsOptions)
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
  await app.listen(portFromArgv(), HOST)
  announceReady(app.server.address())
}

main().catch(failStart)
