import { runtimeError } from '../errors/runtime-codes'
import type { ListenPlace } from './listen-target'

/** Node's error from a failed bind: `code` (EADDRINUSE ...) and what it was binding. */
type BindError = Error & { code?: unknown; syscall?: unknown; address?: unknown; port?: unknown; hostname?: unknown; enclaveCode?: string }

/**
 * The error listen() rejects with when Node cannot bind: Node's own error, as Fastify 3 rethrows
 * it, so `error.code === 'EADDRINUSE'` and its errno, syscall, address and port still read as
 * code expects; its message (and the stack's first line) says which address failed and what to
 * do, and `enclaveCode` names the table entry (ENC_ERR_SERVER_LISTEN_FAILED). Node's bare
 * "listen EADDRINUSE: address already in use 127.0.0.1:3000" names no fix, and "getaddrinfo
 * ENOTFOUND locahost" does not say it was listen()'s host.
 */
export function listenFailure(error: unknown, target: ListenPlace, path: string): unknown {
  if (!(error instanceof Error)) return error
  const bind = error as BindError
  if (typeof bind.code !== 'string' || bind.enclaveCode !== undefined) return error
  const where = target.path !== undefined ? `the socket ${target.path}` : `port ${target.port} on host ${target.host}`
  const framed = runtimeError('ENC_ERR_SERVER_LISTEN_FAILED', { path, where, node: bind.message, fix: listenFix(bind.code, target) })
  const first = `${bind.name}: ${bind.message}`
  bind.message = framed.message
  if (typeof bind.stack === 'string' && bind.stack.startsWith(first)) bind.stack = `${bind.name}: ${framed.message}${bind.stack.slice(first.length)}`
  bind.enclaveCode = framed.code
  return bind
}

/** What to do about each bind failure Node reports; the fallback names the variable to check. */
export function listenFix(code: string, target: ListenPlace): string {
  const socket = target.path !== undefined
  switch (code) {
    case 'EADDRINUSE':
      return socket
        ? 'Another process (another copy of this app?) is serving on that socket, or one that did not close left the file behind: stop it, or remove the file once nothing serves on it'
        : `Another process (another copy of this app: npm start twice?) is listening there: stop it (\`lsof -i :${target.port}\` or \`ss -ltnp\` names it), or listen on another port (PORT=${target.port === 65535 ? 3000 : target.port + 1}, or 0 for a free one)`
    case 'EACCES':
      return socket
        ? 'This process may not create a file there: pick a directory it can write to'
        : 'Ports below 1024 need privileges this process does not have: listen on a port from 1024 (3000, 8080) and let a proxy or the platform map port 80/443 to it'
    case 'EADDRNOTAVAIL':
      return "The host is not an address of this machine: use '127.0.0.1' (this machine only), '0.0.0.0' or '::' (every interface, as in a container), or an address `ip addr` lists"
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return "The host name does not resolve (a typo, such as 'locahost'?): use '127.0.0.1', 'localhost', '0.0.0.0' or '::', or check the variable it comes from (HOST)"
    default:
      return socket ? 'Check the socket path and its directory' : 'Check the port and host, and the variables they come from (PORT, HOST)'
  }
}
