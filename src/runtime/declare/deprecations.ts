/**
 * Fastify 3's deprecation warnings for the Fastify calling forms Enclave still accepts. Name and
 * code are Fastify's (`FastifyDeprecation`, `FSTDEPnnn`) so that code watching for them keeps
 * working; each is emitted once per process, as Fastify's own are.
 */
const emitted = new Set<string>()

function warnOnce(code: string, message: string): void {
  if (emitted.has(code)) return
  emitted.add(code)
  process.emitWarning(message, { type: 'FastifyDeprecation', code })
}

/** An async content-type parser with one parameter: Fastify 3's deprecated `(payload)` form. */
export function warnPayloadParser(): void {
  warnOnce('FSTDEP003', 'addContentTypeParser(): an async parser with a single parameter gets the payload stream (Fastify 3\'s deprecated signature). Declare it as (request, payload, done), or give parseAs to get the collected body.')
}

/** createServer({ versioning }): Fastify 3's deprecated custom version strategy (FSTDEP009). */
export function warnVersioningOption(): void {
  warnOnce('FSTDEP009', 'createServer({ versioning }): the versioning option is deprecated (Fastify 3\'s FSTDEP009). Use constraints: { version: { name: \'version\', storage, deriveConstraint, validate, mustMatchWhenDerived: true } } instead.')
}
