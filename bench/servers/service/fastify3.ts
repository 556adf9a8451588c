// The service app on fastify 3.27.4 (pino 6 at info to /dev/null): the reference contender.
import fastify from 'fastify3'
import { declareFastifyService, type FastifyService } from './fastify-service'
import { LOG_FILE } from './shape'
import { HOST, portFromArgv, announceReady, failStart } from '../ready-line'

async function main(): Promise<void> {
  const app = fastify({ logger: { level: 'info', file: LOG_FILE } })
  declareFastifyService(app as unknown as FastifyService)
  await app.listen(portFromArgv(), HOST)
  announceReady(app.server.address())
}

main().catch(failStart)
