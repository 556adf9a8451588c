// One bounded poller for tests that wait on something the server does after a reply (a release, a
// cancelled source, a log line): no fixed sleeps, and never an unbounded wait on an event that may
// not come. Bounded both in count (ms / every polls) and in wall time: each check is raced against the
// time left, so a slow or never-settling check cannot stretch the wait, and no check starts after the
// deadline.
import { setTimeout as sleep } from 'node:timers/promises'

export interface PollOptions {
  /** Give up after this long (wall time). Default 3,000 ms. */
  ms?: number
  /** Pause between checks. Default 10 ms. */
  every?: number
}

const timedOut = Symbol('timed out')

/** Runs one check, but gives up on it when `remaining` ms pass: a check still pending then counts as not held. */
async function checkWithin(check: () => boolean | Promise<boolean>, remaining: number): Promise<boolean> {
  const result = Promise.resolve().then(check)
  // The check may reject after we stopped waiting for it; that late rejection is not this poll's to report.
  result.catch(() => {})
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<typeof timedOut>((resolve) => { timer = setTimeout(() => resolve(timedOut), remaining) })
  try {
    const outcome = await Promise.race([result, deadline])
    return outcome !== timedOut && outcome === true
  } finally {
    clearTimeout(timer)
  }
}

/** Polls `check` until it holds or the bounds run out; resolves with whether it held. */
export async function poll(check: () => boolean | Promise<boolean>, { ms = 3_000, every = 10 }: PollOptions = {}): Promise<boolean> {
  const deadline = Date.now() + ms
  const polls = Math.max(1, Math.ceil(ms / every) + 1)
  for (let i = 0; i < polls; i++) {
    // The first check always runs (even with ms <= 0); later ones only while time is left.
    const remaining = deadline - Date.now()
    if (i > 0 && remaining <= 0) break
    if (await checkWithin(check, Math.max(remaining, 0))) return true
    const left = deadline - Date.now()
    if (left <= 0) break
    await sleep(Math.min(every, left))
  }
  return false
}

/**
 * Like poll(), but a wait that runs out throws, naming `what` (a function when the message should
 * carry state read at that moment, such as a child process's output).
 */
export async function until(check: () => boolean | Promise<boolean>, what: string | (() => string), options: PollOptions = {}): Promise<void> {
  if (await poll(check, options)) return
  throw new Error(`not within ${options.ms ?? 3_000} ms: ${typeof what === 'string' ? what : what()}`)
}
