/**
 * The sums alloc-account.ts prints from a V8 sampling heap profile (HeapProfiler.stopSampling's
 * tree): bytes by the owner of the function that allocated them, bytes allocated anywhere below an
 * Enclave frame, and those bytes by site (the allocating function with its two callers).
 */
export interface CallFrame { functionName: string; url: string; lineNumber: number; columnNumber: number }
export interface SamplingNode { callFrame: CallFrame; selfSize: number; children: SamplingNode[] }

export const ALLOCATION_OWNERS = ['enclave', 'node', 'deps', 'app', 'native'] as const
export type AllocationOwner = typeof ALLOCATION_OWNERS[number]

export interface AllocationAccount {
  total: number
  byOwner: Record<AllocationOwner, number>
  /** Allocated by an Enclave function or by anything it called (Node internals included). */
  underEnclave: number
  /** `function url:line:column < caller < caller's caller` -> bytes, for what is under Enclave. */
  sites: Map<string, number>
}

/** Enclave as built (dist/src), the bench server (dist/bench), Node's JS, dependencies; `native` has no script. */
export function allocationOwner(url: string): AllocationOwner {
  if (url.includes('/dist/src/')) return 'enclave'
  if (url.startsWith('node:')) return 'node'
  if (url.includes('/node_modules/')) return 'deps'
  if (url.includes('/dist/bench/')) return 'app'
  return 'native'
}

function site(frame: CallFrame): string {
  const url = frame.url.replace(/^.*\/dist\//, '').replace(/^.*\/node_modules\//, '')
  return `${frame.functionName === '' ? '(anonymous)' : frame.functionName} ${url}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`
}

/** Sums the profile's self sizes by owner, and by site for what an Enclave frame is above. */
export function accountAllocations(head: SamplingNode): AllocationAccount {
  const account: AllocationAccount = { total: 0, byOwner: { enclave: 0, node: 0, deps: 0, app: 0, native: 0 }, underEnclave: 0, sites: new Map() }
  // Iterative: a profile's tree is as deep as the deepest stack sampled.
  const stack: Array<{ node: SamplingNode; callers: string[]; enclave: boolean }> = [{ node: head, callers: [], enclave: false }]
  while (stack.length > 0) {
    const { node, callers, enclave } = stack.pop() as { node: SamplingNode; callers: string[]; enclave: boolean }
    const owner = allocationOwner(node.callFrame.url)
    const here = site(node.callFrame)
    const underEnclave = enclave || owner === 'enclave'
    if (node.selfSize > 0) {
      account.total += node.selfSize
      account.byOwner[owner] += node.selfSize
      if (underEnclave) {
        account.underEnclave += node.selfSize
        const key = [here, ...callers.slice(-2).reverse()].join(' < ')
        account.sites.set(key, (account.sites.get(key) ?? 0) + node.selfSize)
      }
    }
    for (const child of node.children) stack.push({ node: child, callers: [...callers, here], enclave: underEnclave })
  }
  return account
}
