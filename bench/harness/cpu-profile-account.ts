/**
 * Where a server's main thread spends a request, from a V8 `.cpuprofile`: self time in a time
 * window, per owner of the code. On a shared machine the CPU per request of `npm run bench` swings
 * by ±10% between rounds, more than the framework's whole share on a small endpoint; the framework's
 * own self time, read from samples, stays within a few hundredths of a µs from run to run, so it is
 * what tells a cut from noise there. What a profile cannot see: the kernel (a syscall's time shows as
 * its native caller, `writev`; network work done outside a syscall not at all) and V8's other threads.
 */

/** The parts of a `.cpuprofile` read here (V8's Profiler.Profile). */
export interface CpuProfile {
  readonly nodes: ReadonlyArray<{ readonly id: number; readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number } }>
  readonly startTime: number
  readonly samples: readonly number[]
  readonly timeDeltas: readonly number[]
}

export type Owner = 'enclave' | 'node' | 'deps' | 'app' | 'native' | 'gc' | 'program' | 'idle'
export const BUSY_OWNERS: readonly Owner[] = ['enclave', 'node', 'deps', 'app', 'native', 'gc', 'program']

export interface Account {
  /** Microseconds of self time per owner within the window. */
  readonly byOwner: Readonly<Record<Owner, number>>
  /** Microseconds of self time per Enclave function (`name file:line`), largest first. */
  readonly enclaveFunctions: ReadonlyArray<readonly [string, number]>
  /** The same for every function, whoever owns it (`owner name file:line`): where node's or pino's extra time goes. */
  readonly allFunctions: ReadonlyArray<readonly [string, number]>
}

/**
 * Which code a sample is in. Enclave is `dist/src/` (the framework as built), the bench's own
 * servers `dist/bench/`; V8 builtins, regexps and C++ bindings have no URL ('native').
 */
export function ownerOf(functionName: string, url: string): Owner {
  if (functionName === '(idle)') return 'idle'
  if (functionName === '(garbage collector)') return 'gc'
  if (functionName === '(program)' || functionName === '(root)') return 'program'
  if (url.includes('/node_modules/')) return 'deps'
  if (url.includes('/dist/src/')) return 'enclave'
  if (url.includes('/dist/bench/')) return 'app'
  if (url.startsWith('node:')) return 'node'
  return 'native'
}

/**
 * Self time of the samples taken in [fromUs, toUs] (V8's clock: microseconds of the monotonic
 * clock, the one process.hrtime reads), each sample counted for the time since the one before it.
 */
export function accountProfile(profile: CpuProfile, fromUs: number, toUs: number): Account {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]))
  const byOwner: Record<Owner, number> = { enclave: 0, node: 0, deps: 0, app: 0, native: 0, gc: 0, program: 0, idle: 0 }
  const functions = new Map<string, number>()
  const all = new Map<string, number>()
  let at = profile.startTime
  for (let i = 0; i < profile.samples.length; i++) {
    const before = at
    at += profile.timeDeltas[i]
    if (i === 0 || at < fromUs || at > toUs) continue
    const frame = frames.get(profile.samples[i])
    if (frame === undefined) continue
    const owner = ownerOf(frame.functionName, frame.url)
    const spent = at - before
    byOwner[owner] += spent
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(dist|node_modules)\//, '')}:${frame.lineNumber + 1}`
    if (owner === 'enclave') functions.set(key, (functions.get(key) ?? 0) + spent)
    if (owner !== 'idle') all.set(`${owner.padEnd(7)} ${key}`, (all.get(`${owner.padEnd(7)} ${key}`) ?? 0) + spent)
  }
  const largestFirst = (m: Map<string, number>): [string, number][] => [...m].sort((a, b) => b[1] - a[1])
  return { byOwner, enclaveFunctions: largestFirst(functions), allFunctions: largestFirst(all) }
}
