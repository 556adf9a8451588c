// For tests that show a producer stops once a non-reading client's buffers are full: wait until
// it has stopped, not a fixed time. How long the buffers take to fill depends on the machine (a
// slower or busier one fills them later); the test's own no-growth window starts after this.
import { sleep } from './raw-http'

/**
 * Resolves once `count()` is above zero and has not changed for `quietMs` (polled every 100 ms),
 * or after `limitMs` whatever it is: a producer that never stops is the test's to catch, by its
 * bounds on what was produced.
 */
export async function untilSettled(count: () => number, quietMs = 300, limitMs = 5_000): Promise<void> {
  let last = -1
  let still = 0
  for (let waited = 0; still * 100 < quietMs && waited < limitMs; waited += 100) {
    await sleep(100)
    const now = count()
    still = now === last && now > 0 ? still + 1 : 0
    last = now
  }
}
