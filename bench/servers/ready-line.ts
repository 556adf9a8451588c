/**
 * The contract between a contender's server process and the harness: the port comes as the
 * first argument (0 = any free port), the server prints one `READY <port>` line once it accepts
 * connections, and it exits when its parent goes away (stdin closes) or after a lifetime cap, so
 * an interrupted benchmark never leaves servers behind.
 */

export const READY_PREFIX = 'READY '
export const HOST = '127.0.0.1'
const MAX_LIFETIME_MS = 60 * 60 * 1000

export function portFromArgv(): number {
  const port = Number(process.argv[2] ?? 0)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`bench server: port argument must be an integer 0-65535, got '${process.argv[2]}'`)
  }
  return port
}

/** Prints the ready line and arranges the exits. Call once, after listen() resolved. */
export function announceReady(address: unknown): void {
  const port = typeof address === 'object' && address !== null ? (address as { port: number }).port : Number(address)
  process.stdout.write(`${READY_PREFIX}${port}\n`)
  if (!process.stdin.isTTY) {
    process.stdin.on('end', () => process.exit(0))
    process.stdin.on('error', () => process.exit(0))
    process.stdin.resume()
  }
  setTimeout(() => process.exit(0), MAX_LIFETIME_MS).unref()
  process.on('SIGTERM', () => process.exit(0))
}

/** Top-level failure: print why on stderr (the harness shows it) and exit non-zero. */
export function failStart(error: unknown): never {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
}
