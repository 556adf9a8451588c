/** Messages between the primary and its workers over the cluster IPC channel. */
export const STOP = 'enclave:stop'

export function isStop(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { cmd?: unknown }).cmd === STOP
}
