/**
 * tsyringe has no cycle check: two providers that inject each other recurse until the stack
 * overflows, and its error nests one "Cannot inject the dependency ..." line per frame (thousands
 * of lines, the cycle nowhere named). This reads the cycle back from that message: the class at
 * each level and the parameter it was resolving, up to the first class seen twice.
 */
const step = /Cannot inject the dependency "([^"]*)" at position #(\d+) of "([^"]*)" constructor/g

export function dependencyCycle(error: unknown): string | null {
  if (!(error instanceof Error) || !error.message.includes('Maximum call stack size exceeded')) return null
  const steps: Array<{ owner: string; index: string; name: string }> = []
  const seen = new Map<string, number>()
  for (const match of error.message.slice(0, 200_000).matchAll(step)) {
    const owner = match[3]
    const first = seen.get(owner)
    if (first !== undefined) {
      const loop = steps.slice(first)
      return [...loop.map((s) => `${s.owner} (constructor parameter ${s.index}${s.name === '' ? '' : ` "${s.name}"`})`), owner].join(' -> ')
    }
    seen.set(owner, steps.length)
    steps.push({ owner, index: match[2], name: match[1] })
  }
  return null
}
