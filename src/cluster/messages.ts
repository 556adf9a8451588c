/** Messages between the primary and its workers over the cluster IPC channel. */
export const STOP = 'enclave:stop'

export function isStop(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { cmd?: unknown }).cmd === STOP
}

/**
 * A worker's listen() failed (ENC_ERR_SERVER_LISTEN_FAILED: the port is taken, the host is not
 * this machine's): every worker shares the address, so a respawn would fail the same way.
 */
export const LISTEN_FAILED = 'enclave:listen-failed'

export function listenFailedMessage(message: unknown): string | null {
  if (typeof message !== 'object' || message === null || (message as { cmd?: unknown }).cmd !== LISTEN_FAILED) return null
  const text = (message as { message?: unknown }).message
  return typeof text === 'string' ? text : 'listen() failed'
}

/**
 * The exit code of a worker whose listen() failed (EX_CONFIG of sysexits.h). The message above
 * carries the text, but it and the worker's exit reach the primary on different channels, in
 * either order: the exit code alone tells the primary not to respawn.
 */
export const LISTEN_FAILED_EXIT_CODE = 78
