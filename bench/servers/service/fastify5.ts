// The service app on fastify 5 (pino at info to /dev/null): what a new project picks today.
import fastify from 'fastify5'
import { declareFastifyService, type FastifyService } from './fastify-service'
import { LOG_FILE } from './shape'
import { HOST, portFromArgv, announceReady, failStart } from '../ready-line'

async function main(): Promise<void> {
  const app = fastify({ logger: { level: 'info', file: LOG_FILE } })
  declareFastifyService(app as unknown as FastifyService)
  await app.listen({ port: portFromArgv(), host: HOST })
  announceReady(app.server.address())
}

main().catch(failStart)
