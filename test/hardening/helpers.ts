import { expect } from 'chai'
import type { Scope, ServerOptions } from '../../src/runtime'
import { server } from '../support/servers'
export { server, recordingLogger, type LogEntry } from '../support/servers'
export { within, sleep, RawClient, rawClient, rawRequest, chunked, type RawResponse } from '../support/raw-http'

/** A server with `declare`'s routes, listening on 127.0.0.1; resolves to the app and its address. */
export async function listening(declare: (root: Scope) => void, options?: ServerOptions): Promise<{ app: Scope; address: string }> {
  const app = server(options)
  declare(app)
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, address }
}


/** Asserts the framework's error shape: `{ statusCode, code?, error, message }` and nothing else. */
export function expectErrorShape(body: string, status: number): Record<string, unknown> {
  const parsed = JSON.parse(body) as Record<string, unknown>
  expect(parsed.statusCode, body).to.equal(status)
  expect(parsed.error, body).to.be.a('string')
  expect(parsed.message, body).to.be.a('string')
  expect(Object.keys(parsed).filter((k) => !['statusCode', 'code', 'error', 'message'].includes(k)), body).to.deep.equal([])
  return parsed
}


/** The generic 500 body: nothing from the error itself. */
export const GENERIC_500 = { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }

/** The server's open connections once they have gone (polled up to ~2 s): 0 when every one came back. */
export async function connectionsBack(app: Scope): Promise<number> {
  const connections = (): Promise<number> => new Promise((resolve) => app.server.getConnections((_e, n) => resolve(n)))
  let open = -1
  for (let i = 0; i < 100 && open !== 0; i++) {
    open = await connections()
    if (open !== 0) await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return open
}
