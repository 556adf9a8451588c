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

/** Fastify 3's deprecated `request.req`: still `request.raw`, with Fastify's warning. */
export function warnRequestReq(): void {
  warnOnce('FSTDEP001', 'You are accessing the Node.js core request object via "request.req", Use "request.raw" instead.')
}

/** Fastify 3's deprecated `reply.res`: still `reply.raw`, with Fastify's warning. */
export function warnReplyRes(): void {
  warnOnce('FSTDEP002', 'You are accessing the Node.js core response object via "reply.res", Use "reply.raw" instead.')
}

/** Fastify 3's deprecated `request.connection`: still `request.socket`, with Fastify's warning. */
export function warnRequestConnection(): void {
  warnOnce('FSTDEP005', 'You are accessing the deprecated "request.connection" property. Use "request.socket" instead.')
}

/** Fastify 3's legacy preParsing hook `(request, reply, done)` (async `(request, reply)`), which gets no payload: still run, with Fastify's warning. */
export function warnLegacyPreParsing(): void {
  warnOnce('FSTDEP004', 'You are using the legacy preParsing hook signature. Use the one suggested in the documentation instead.')
}

/** createServer({ versioning }): Fastify 3's deprecated custom version strategy (FSTDEP009). */
export function warnVersioningOption(): void {
  warnOnce('FSTDEP009', 'createServer({ versioning }): the versioning option is deprecated (Fastify 3\'s FSTDEP009). Use constraints: { version: { name: \'version\', storage, deriveConstraint, validate, mustMatchWhenDerived: true } } instead.')
}
