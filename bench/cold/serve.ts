/**
 * The worker's side of the cold-start protocol: once the app listens, one `COLD-PORT <port>` line
 * on stdout; the driver sends the first request, reads the whole answer, then writes a line to
 * the worker's stdin, and the worker prints `COLD <json>` (its marks) and exits. stdout also
 * carries the app's request log, as a serverless function's does.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { COLD_PREFIX, mark, started, type ColdMark, type ColdMarks } from './marks'

export const PORT_PREFIX = 'COLD-PORT '

export function coldStart(load: () => unknown, build: (framework: unknown) => Promise<Server>): void {
  const framework = load()
  const loaded = mark()
  build(framework).then((server) => {
    const listening = mark()
    const modules = Object.keys(require.cache).length
    process.stdin.once('data', () => {
      const answered: ColdMark = mark()
      const marks: ColdMarks = { started, required: loaded, listening, answered, modules }
      process.stdout.write(`${COLD_PREFIX}${JSON.stringify(marks)}\n`, () => process.exit(0))
    })
    process.stdout.write(`${PORT_PREFIX}${(server.address() as AddressInfo).port}\n`)
  }, (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
    process.exit(1)
  })
}
