// Fastify 3 publishes every new instance on the diagnostics channel 'fastify.initialization'
// (`{ fastify }`), which APM agents subscribe to in order to add their hooks before any route is
// declared. Enclave publishes its root scope there under the same name, so those agents see it.
import { channel } from 'node:diagnostics_channel'
import type { Scope } from '../types'

const initialization = channel('fastify.initialization')

/** Called once per server, with the root scope, before createServer() returns it. */
export function publishInitialization(fastify: Scope): void {
  if (initialization.hasSubscribers) initialization.publish({ fastify })
}
