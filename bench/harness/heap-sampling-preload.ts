/**
 * Loaded with `node -r` into a bench server by alloc-account.ts: V8's sampling heap profiler,
 * started on SIGUSR2 and stopped on SIGUSR1, counting objects a scavenge or a mark-compact already
 * collected too (a request's garbage is most of what it allocates). The profile is written to
 * ENCLAVE_HEAP_PROFILE_OUT and a `HEAP-PROFILE` line printed. Only the bench loads this.
 */
import { Session } from 'node:inspector'
import { writeFileSync } from 'node:fs'

const out = process.env.ENCLAVE_HEAP_PROFILE_OUT
const interval = Number(process.env.ENCLAVE_HEAP_SAMPLING_INTERVAL ?? 64)

if (out !== undefined) {
  const session = new Session()
  session.connect()
  const post = (method: string, params: object = {}): Promise<unknown> =>
    new Promise((resolve, reject) => session.post(method, params, (error, result) => (error === null ? resolve(result) : reject(error))))
  process.on('SIGUSR2', () => {
    void post('HeapProfiler.enable')
      .then(() => post('HeapProfiler.startSampling', { samplingInterval: interval, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }))
      .then(() => process.stdout.write('HEAP-SAMPLING\n'))
  })
  process.on('SIGUSR1', () => {
    void post('HeapProfiler.stopSampling').then((result) => {
      writeFileSync(out, JSON.stringify((result as { profile: unknown }).profile))
      process.stdout.write('HEAP-PROFILE\n')
    })
  })
}
