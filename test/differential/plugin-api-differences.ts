// README differences the `plugin-api` family meets (plugin-api.ts): each rewrites Fastify 3's
// answer, or asks it again with the declarations changed as the rule says Enclave reads them.
import semver from 'semver'
import type { Answer } from './case'
import type { KnownDifference, RewriteContext } from './difference-types'
import { paRoute, type PaShape, type PaStep } from './plugin-api'

// Fastify 3's error (code, else message) for a call and Enclave's code for the same refusal.
const CODES: Array<[RegExp, string]> = [
  [/^threw FST_ERR_DEC_ALREADY_PRESENT$/, 'threw ENC_ERR_DEC_ALREADY_PRESENT'],
  [/^threw FST_ERR_DEC_MISSING_DEPENDENCY$/, 'threw ENC_ERR_DEC_MISSING_DEPENDENCY'],
  [/^threw FST_ERR_DEC_AFTER_START$/, 'threw ENC_ERR_SCOPE_BOOTED'],
  [/^threw \(no code\) Cannot call "\w+" when fastify instance is already started!$/, 'threw ENC_ERR_SCOPE_BOOTED'],
  [/^threw \(no code\) Cannot add route when fastify instance is already started!$/, 'threw ENC_ERR_SCOPE_BOOTED'],
]

type Echo = { log?: unknown; late?: unknown; onRoute?: unknown }

function echoOf(a: Answer): Echo | undefined {
  return a.body !== null && typeof a.body === 'object' && Array.isArray((a.body as Echo).log) ? a.body as Echo : undefined
}

/** The answer with another JSON body; its Content-Length follows. */
function withBody(a: Answer, body: unknown): Answer {
  const headers = { ...a.headers }
  if (headers['content-length'] !== undefined) headers['content-length'] = String(Buffer.byteLength(JSON.stringify(body)))
  return { ...a, headers, body }
}

/** Each line of the echo's lists through `map`; undefined when no line changed. */
function mapLines(f: Answer, map: (line: string) => string): Answer | undefined {
  const echo = echoOf(f)
  if (echo === undefined) return undefined
  let changed = false
  const body: Record<string, unknown> = { ...echo }
  for (const key of ['log', 'late', 'onRoute'] as const) {
    const list = echo[key]
    if (!Array.isArray(list)) continue
    body[key] = list.map((line: unknown) => {
      if (typeof line !== 'string') return line
      const next = map(line)
      if (next !== line) changed = true
      return next
    })
  }
  return changed ? withBody(f, body) : undefined
}

function allSteps(shape: PaShape): PaStep[] {
  return [...shape.root, ...shape.child.steps]
}

/** The shape with each step passed through `change` (a copy: the case keeps its own). */
function reshaped(shape: PaShape, change: (step: PaStep) => PaStep): PaShape {
  return { ...shape, root: shape.root.map(change), child: { ...shape.child, steps: shape.child.steps.map(change) } }
}

const lower = (m: string | string[]): boolean => (Array.isArray(m) ? m : [m]).some((x) => x !== x.toUpperCase())
const only5 = (range: string | undefined): boolean => range !== undefined && semver.satisfies('5.0.0', range) && !semver.satisfies('3.27.4', range)

/**
 * The declarations as Enclave reads them under the two rules that make Fastify 3 refuse what
 * Enclave takes: lower-case methods upper-cased, `fastify` ranges only 5.0.0 satisfies dropped.
 * Both replays use it, so either rule's replay keeps the other's reading.
 */
function asEnclaveReads(shape: PaShape): PaShape {
  return reshaped(shape, (s) => {
    if (s.s === 'route' && lower(s.route.method)) return { s: 'route', route: { ...s.route, method: Array.isArray(s.route.method) ? s.route.method.map((m) => m.toUpperCase()) : s.route.method.toUpperCase() } }
    if (s.s === 'fp' && only5(s.fp.range)) return { s: 'fp', fp: { ...s.fp, range: undefined } }
    return s
  })
}

/** Fastify 3's answer to `request` with the case's declarations as Enclave reads them (the 405 rule's replays). */
export function paReplay(shape: PaShape, replay: RewriteContext['replay']): RewriteContext['replay'] {
  return (request) => replay(request, paRoute(asEnclaveReads(shape)), {})
}

export const PLUGIN_API_DIFFERENCES: KnownDifference[] = [
  {
    id: 'pa-enclave-error-codes',
    readme: 'Errors carry Enclave\'s codes (`ENC_ERR_<AREA>_<WHAT>`, the table in docs/errors.md) with messages that name\n  the route or scope path and the fix, not Fastify\'s `FST_ERR_*` codes or avvio\'s texts.',
    rewrite(f, { c }) {
      if (c.pa === undefined) return undefined
      return mapLines(f, (line) => {
        const at = line.lastIndexOf(': threw ')
        if (at === -1) return line
        const outcome = line.slice(at + 2)
        const pair = CODES.find(([fastify]) => fastify.test(outcome))
        return pair === undefined ? line : `${line.slice(0, at + 2)}${pair[1]}`
      })
    },
  },
  {
    id: 'pa-reference-type-refused',
    readme: 'An object or array given to `decorateRequest`/`decorateReply` as the value is refused\n  (`ENC_ERR_DEC_REFERENCE_TYPE`)',
    rewrite(f, { c, enclave }) {
      if (c.pa === undefined || !allSteps(c.pa).some((s) => s.s === 'ref') || f.bootError !== undefined || enclave.bootError === undefined || !/would be shared by every request/.test(enclave.bootError)) return undefined
      return { statusCode: 0, headers: {}, body: undefined, bootError: enclave.bootError }
    },
  },
  {
    id: 'pa-plugin-api-is-fastify-5',
    readme: 'a plugin\'s `plugin-meta` `fastify` range is checked\n  against it (`fastify: \'3.x\'` is refused with `ENC_ERR_PLUGIN_VERSION`',
    async rewrite(f, { c, enclave, replay }) {
      const shape = c.pa
      if (shape === undefined || shape.ranges.length === 0) return undefined
      // A range 5.0.0 does not satisfy: Enclave refuses the plugin at boot.
      const refused = /expects Fastify '([^']+)'/.exec(enclave.bootError ?? '')?.[1]
      if (refused !== undefined && shape.ranges.includes(refused) && !semver.satisfies('5.0.0', refused)) return { statusCode: 0, headers: {}, body: undefined, bootError: enclave.bootError }
      // A range only 5.0.0 satisfies: Fastify 3 refuses it; asked again without those ranges.
      if (f.bootError === undefined || !/fastify version, '3\.27\.4' is installed/.test(f.bootError)) return undefined
      return await replay(c.request, paRoute(asEnclaveReads(shape)), {})
    },
  },
  {
    id: 'pa-lower-case-method',
    readme: 'A route method in lower case (`method: \'get\'`) is taken as GET; Fastify 3 refuses the route at',
    async rewrite(f, { c, enclave, replay }) {
      const shape = c.pa
      if (shape === undefined || !allSteps(shape).some((s) => s.s === 'route' && lower(s.route.method))) return undefined
      // Only while Fastify 3's answer still shows a refused route: a replayed one does not (the rule then has said its part).
      const refused = (line: unknown): boolean => typeof line === 'string' && / method is not supported!$/.test(line)
      // (or a 404, or Enclave's boot refusal of what the upper-cased route collides with: seed 23:89).
      const collides = f.bootError === undefined && enclave.bootError !== undefined
      if (!(echoOf(f)?.log as unknown[] | undefined ?? []).some(refused) && !/ method is not supported!/.test(f.bootError ?? '') && f.statusCode !== 404 && !collides) return undefined
      return await replay(c.request, paRoute(asEnclaveReads(shape)), {})
    },
  },
  {
    id: 'pa-prefix-without-trailing-slash',
    readme: 'A plugin registered with `{ prefix: \'/v1/\' }` reads its own `prefix` as `/v1`',
    rewrite(f, { c }) {
      const prefix = c.pa?.child.prefix
      if (prefix === undefined || !prefix.endsWith('/') || c.pa?.child.wrapped === true) return undefined
      const trimmed = prefix.slice(0, -1)
      return mapLines(f, (line) => line.split(`prefix=${prefix} `).join(`prefix=${trimmed} `))
    },
  },
]
