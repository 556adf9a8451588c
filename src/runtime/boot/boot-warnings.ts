import { SILENCING_MAX_LENGTH } from '../schemas/pattern-check'

/**
 * Boot warnings: a declaration that works, but that a hostile client can turn against the server.
 * Each has a code (`ENC_WARN_...`, listed in docs/errors.md, "Boot warnings"), is logged at warn once per
 * route at boot (and once per process through process.emitWarning when the logger is silent,
 * Enclave's default, so that it is seen), and is silenced by fixing the declaration, never by an
 * option. Kept few on purpose: a warning that fires on reasonable schemas teaches people to
 * ignore warnings.
 */
export const bootWarningTable = [
  {
    code: 'ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED',
    summary: 'a request schema has `uniqueItems: true` without `maxItems` on items that are untyped, objects or arrays: ajv compares every pair (O(n²) CPU per request)',
  },
  {
    code: 'ENC_WARN_SCHEMA_PATTERN_REDOS',
    summary: `a request schema has a \`pattern\` (or \`patternProperties\` key) that can backtrack super-linearly (nested unbounded quantifiers, overlapping alternatives under one, unbounded quantifiers over the same characters meeting directly or through a character both take; a bounded repeat counts only when its copies meet so) and no \`maxLength\` (\`propertyNames.maxLength\`) of at most ${SILENCING_MAX_LENGTH.toLocaleString('en-US')}: a crafted string makes it backtrack for seconds (ReDoS)`,
  },
  {
    code: 'ENC_WARN_ROUTE_REGEX_REDOS',
    summary: 'a route path has a regex parameter (`/:id(^\\w+\\w+x$)`), or a segment of several parameters (`/:a(^\\w+):b(^\\w+)`, one regex to the router), or the route a RegExp `constraints.host`, that can backtrack super-linearly (overlapping alternatives under a quantifier, unbounded quantifiers over the same characters meeting; find-my-way already refuses nested quantifiers): the router runs it on any URL segment up to maxParamLength characters per parameter, before any hook (ReDoS)',
  },
  {
    code: 'ENC_WARN_ROUTE_METADATA_UNREAD',
    summary: "a controller route carries routeMetadata() / SetMetadata values (`@Roles(['admin'])`) but no guard, interceptor or app hook that runs before the handler (plugins' hooks such as cookie's or cors' do not count) is on it, so nothing reads them and the route is served to everyone (a guard meant to be attached was not)",
  },
  {
    // Not a boot warning: the one runtime warning (serve/unlogged-failure.ts), in this table so that
    // every ENC_WARN_ code has one list (docs/errors.md's table is checked against it).
    code: 'ENC_WARN_UNLOGGED_SERVER_ERROR',
    summary: 'at run time, with no logger (the default): the first 5xx in the process whose message the client does not see (a thrown `Error`, a handler that gave `undefined`, a payload the serializer cannot write), or the first failure logged at error level after the answer started (a stream that failed mid-body, an onResponse hook that threw), so its cause was logged nowhere; once per process, naming the route, the error, where it was thrown and how to turn the logger on',
  },
] as const

export type BootWarningCode = typeof bootWarningTable[number]['code']

export interface BootWarning {
  readonly code: BootWarningCode
  readonly message: string
  readonly fields: Readonly<Record<string, unknown>>
}

export interface WarningLog { warn(fields: object, message: string): void }

const emitted = new Set<string>()

/**
 * Now, or queued with the serializers while eager boot batches them (serializer-batch.ts): a boot
 * that fails at an earlier route's serializer then logs no warning of a later route, as the
 * route-by-route order did.
 */
export function reportInBootOrder(warnings: readonly BootWarning[], boot: { serializerBatch: { add(run: () => void): void } | null; serve: { log: WarningLog; silent: boolean } }): void {
  if (warnings.length === 0) return
  const report = (): void => reportBootWarnings(warnings, boot.serve.log, boot.serve.silent)
  if (boot.serializerBatch === null) report()
  else boot.serializerBatch.add(report)
}

/** Logs each warning; with a silent logger, emits its code once per process instead. */
export function reportBootWarnings(warnings: readonly BootWarning[], log: WarningLog, silent: boolean): void {
  for (const warning of warnings) {
    if (!silent) { log.warn({ code: warning.code, ...warning.fields }, warning.message); continue }
    if (emitted.has(warning.code)) continue
    emitted.add(warning.code)
    process.emitWarning(`${warning.message} (once per process: turn the logger on for a line per route)`, { type: 'EnclaveWarning', code: warning.code })
  }
}
