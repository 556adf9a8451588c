import { runtimeError } from '../errors/runtime-codes'
import { unknownOptions } from '../schemas'
import type { ListenOptions } from '../types'

/** Node's listen options besides where: handed to `server.listen()` as given, as Fastify 3 does. */
export interface NodeListenExtras { backlog?: number; exclusive?: boolean; readableAll?: boolean; writableAll?: boolean; ipv6Only?: boolean; signal?: AbortSignal }

/** Where listen() binds: a TCP port and host, or a Unix domain socket / Windows named pipe path. */
export type ListenPlace = { port: number; host: string; path?: undefined } | { path: string }

/** The place, with Node's other options for server.listen(). */
export type ListenTarget = ListenPlace & { readonly node: NodeListenExtras }

const nodeExtraKeys = ['backlog', 'exclusive', 'readableAll', 'writableAll', 'ipv6Only', 'signal'] as const
const listenOptionKeys: readonly string[] = ['port', 'host', 'path', ...nodeExtraKeys]

/**
 * What listen()'s arguments name. A number, or a string of digits (`listen(process.env.PORT)`,
 * which Fastify takes too), is a port; a missing one is 0, a free port. A socket path is taken as
 * Fastify 3 takes it (`listen('/run/app.sock')`, `listen({ path })`), but only when it reads as a
 * path: it has a '/', or it is a Windows pipe (`\\.\pipe\name`). Fastify 3 (Node) listens on any
 * other non-numeric string as a file in the working directory, so a mistyped variable
 * (`listen('undefined')`) would serve on a file named after it: that is refused instead.
 */
export function listenTarget(options: ListenOptions, host: string | undefined, scopePath: string): ListenTarget {
  // Node's other listen options, which Fastify 3 passes through (its own tests give them), go to
  // server.listen() as given: only a name none of them is (`prot`) is refused.
  const unknown = unknownOptions(options, listenOptionKeys)
  if (unknown !== null) throw runtimeError('ENC_ERR_SERVER_LISTEN_OPTIONS', { unknown, path: scopePath, known: listenOptionKeys })
  const node: NodeListenExtras = {}
  for (const key of nodeExtraKeys) if (options[key] !== undefined) (node as Record<string, unknown>)[key] = options[key]
  const { port, path } = options as { port?: unknown; path?: unknown }
  if (path !== undefined) {
    if (port !== undefined) throw invalid(`{ port: ${shown(port)}, path: ${shown(path)} }`, scopePath, 'give a port or a path, not both')
    if (typeof path !== 'string' || path === '') throw invalid(`{ path: ${shown(path)} }`, scopePath, 'the path must be a non-empty string')
    return { path, node }
  }
  if (typeof port === 'string' && !/^\d{1,5}$/.test(port) && isSocketPath(port)) return { path: port, node }
  return { port: listenPort(port, scopePath), host: host ?? options.host ?? '127.0.0.1', node }
}

function isSocketPath(text: string): boolean {
  return text.includes('/') || text.startsWith('\\\\.\\pipe\\') || text.startsWith('\\\\?\\pipe\\')
}

function listenPort(given: unknown, scopePath: string): number {
  if (given === undefined || given === null) return 0
  const port = typeof given === 'string' && /^\d{1,5}$/.test(given) ? Number(given) : given
  if (typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 65535) return port
  throw runtimeError('ENC_ERR_SERVER_INVALID_PORT', { given: shown(given), path: scopePath })
}

function invalid(given: string, scopePath: string, problem: string): Error {
  return runtimeError('ENC_ERR_SERVER_INVALID_PORT', { given: `${given} (${problem})`, path: scopePath })
}

function shown(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value)
}
