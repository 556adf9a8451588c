// One bounded poller for tests that wait on something the server does after a reply (a release, a
// cancelled source, a log line): no fixed sleeps, and never an unbounded wait on an event that may
// not come. Bounded both in count (ms / every polls) and in wall time (a slow check cannot stretch it).
import { setTimeout as sleep } from 'node:timers/promises'

export interface PollOptions {
  /** Give up after this long (wall time). Default 3,000 ms. */
  ms?: number
  /** Pause between checks. Default 10 ms. */
  every?: number
}

/** Polls `check` until it holds or the bounds run out; resolves with whether it held. */
export async function poll(check: () => boolean | Promise<boolean>, { ms = 3_000, every = 10 }: PollOptions = {}): Promise<boolean> {
  const deadline = Date.now() + ms
  const polls = Math.max(1, Math.ceil(ms / every))
  for (let i = 0; i < polls && Date.now() < deadline; i++) {
    if (await check()) return true
    await sleep(every)
  }
  return await check()
}

/**
 * Like poll(), but a wait that runs out throws, naming `what` (a function when the message should
 * carry state read at that moment, such as a child process's output).
 */
export async function until(check: () => boolean | Promise<boolean>, what: string | (() => string), options: PollOptions = {}): Promise<void> {
  if (await poll(check, options)) return
  throw new Error(`not within ${options.ms ?? 3_000} ms: ${typeof what === 'string' ? what : what()}`)
}
