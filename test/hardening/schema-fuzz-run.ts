/**
 * The schema-aware input fuzz, part two: one drawn route (schema-fuzz-draw.ts) declared the same
 * way on Enclave and on Fastify 3.27.4 (and Fastify 5 when asked), every drawn request injected
 * into each. On Enclave every answer must be the handler's echo or a 4xx in the error contract:
 * never a 5xx, a stack, a hang or an error log; the handler finds no polluted prototype and every
 * validated part satisfying its schema (checked again without coercion, defaults or removal).
 * Where the frameworks answer differently, the difference is looked up in schema-fuzz-known.ts
 * (each entry names the README passage that lists it); what no entry explains is a finding.
 */
import { createServer } from '../../src/runtime'
import { SHARED, drawCase, type RouteSchemas, type Schema, type SchemaFuzzRequest } from './schema-fuzz-draw'
import { explain, sharedBreach } from './schema-fuzz-known'

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Ajv = require('ajv') as new (options: object) => { addSchema(s: object): void; compile(s: object): ((v: unknown) => boolean) & { errors?: unknown[] | null }; errorsText(e?: unknown): string }

export type Framework = 'enclave' | 'fastify3' | 'fastify5'

export interface Answer { status: number; body: string; threw?: string }

interface App {
  addSchema(s: object): unknown
  route(o: object): unknown
  ready(): PromiseLike<unknown>
  inject(o: object): PromiseLike<{ statusCode: number; payload: string }>
  close(): PromiseLike<unknown>
}

const PARTS = ['body', 'query', 'params', 'headers'] as const
const OBJECT_NAMES = Object.getOwnPropertyNames(Object.prototype).join()
const ARRAY_NAMES = Object.getOwnPropertyNames(Array.prototype).join()

/**
 * The prototype chain holds nothing a client put there: it ends at Object.prototype, Array.prototype
 * or null through objects with no own keys (find-my-way 9's params factory, as in Fastify 5).
 */
function plainChain(v: object): boolean {
  for (let proto = Object.getPrototypeOf(v) as object | null; proto !== null; proto = Object.getPrototypeOf(proto) as object | null) {
    if (proto === Object.prototype || proto === Array.prototype) return true
    if (Reflect.ownKeys(proto).some((k) => k !== 'constructor')) return false
  }
  return true
}

/** What the handler finds wrong with what validation handed it. */
function inspect(request: Record<string, unknown>, checks: Record<string, ((v: unknown) => boolean) & { errors?: unknown[] | null }>, errorsText: (e?: unknown) => string): string[] {
  const problems: string[] = []
  if (Object.getOwnPropertyNames(Object.prototype).join() !== OBJECT_NAMES || Object.getOwnPropertyNames(Array.prototype).join() !== ARRAY_NAMES || ({} as Record<string, unknown>).polluted !== undefined) {
    problems.push('a built-in prototype was polluted')
  }
  for (const part of PARTS) {
    const seen: string[] = []
    const walk = (v: unknown, depth: number): void => {
      if (v === null || typeof v !== 'object' || depth > 50) return
      if (!plainChain(v)) seen.push(`${part}: an object whose prototype chain holds ${JSON.stringify(Object.getPrototypeOf(v))?.slice(0, 80)}`)
      if ((v as Record<string, unknown>).polluted !== undefined && !Object.prototype.hasOwnProperty.call(v, 'polluted')) seen.push(`${part}: an inherited 'polluted'`)
      for (const item of Object.values(v)) walk(item, depth + 1)
    }
    walk(request[part], 0)
    problems.push(...seen.slice(0, 2))
    const check = checks[part]
    if (check !== undefined && !check(request[part])) problems.push(`${part} does not satisfy its schema: ${errorsText(check.errors)}`)
  }
  return problems
}

const HEADER_NAMES = ['x-a', 'x-b', 'x-c']

function newApp(framework: Framework): App {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  if (framework === 'fastify3') return require('fastify3')({ logger: false }) as App
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  if (framework === 'fastify5') return require('fastify5')({ logger: false }) as App
  return createServer({ logger: { level: 'error', info() {}, debug() {}, warn() {}, error: (obj: unknown, msg?: string) => { loggedErrors.push(`${msg ?? ''} ${JSON.stringify(obj)?.slice(0, 300)}`) } } as never }) as unknown as App
}

/** Error logs of the Enclave apps since the last `takeLoggedErrors()`. */
const loggedErrors: string[] = []
export function takeLoggedErrors(): string[] { return loggedErrors.splice(0) }

/** The route on one framework; its handler echoes what validation handed it, with its own findings. */
export async function declare(framework: Framework, schemas: RouteSchemas): Promise<App> {
  const app = newApp(framework)
  for (const s of SHARED) app.addSchema(structuredClone(s))
  // The schemas again, checked strictly: what the handler holds must satisfy them as it is.
  const ajv = new Ajv({ allErrors: false })
  for (const s of SHARED) ajv.addSchema(structuredClone(s))
  const checks = { body: ajv.compile(structuredClone(schemas.body)), query: ajv.compile(structuredClone(schemas.querystring)), params: ajv.compile(structuredClone(schemas.params)), headers: ajv.compile(structuredClone(schemas.headers)) }
  app.route({
    method: 'POST', url: '/r/:p1/:p2', schema: structuredClone({ body: schemas.body, querystring: schemas.querystring, params: schemas.params, headers: schemas.headers }),
    handler: async (request: Record<string, unknown>) => {
      const headers = request.headers as Record<string, unknown>
      return { body: request.body, query: request.query, params: request.params, headers: Object.fromEntries(HEADER_NAMES.filter((h) => h in headers).map((h) => [h, headers[h]])), problems: inspect(request, checks, (e) => ajv.errorsText(e)) }
    },
  })
  await app.ready()
  return app
}

const HANG_MS = 5_000

export async function answer(app: App, request: SchemaFuzzRequest): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined
  const hang = new Promise<Answer>((resolve) => { timer = setTimeout(() => resolve({ status: -1, body: `no answer within ${HANG_MS} ms` }), HANG_MS) })
  try {
    const injected = Promise.resolve(app.inject({ method: 'POST', url: request.url, headers: request.headers, payload: request.payload }))
      .then((res) => ({ status: res.statusCode, body: res.payload }), (error: Error) => ({ status: 0, body: '', threw: error.message }))
    return await Promise.race([injected, hang])
  } finally {
    clearTimeout(timer)
  }
}

const STACK = /\n\s+at |node_modules|\/src\/|\.js:\d+/

/** What breaks Enclave's contract in one answer, or null. */
export function contractBreach(a: Answer): string | null {
  if (a.threw !== undefined) return `inject threw: ${a.threw}`
  if (a.status === -1) return a.body
  if (STACK.test(a.body)) return `${a.status} with internals in the body: ${a.body.slice(0, 200)}`
  let parsed: Record<string, unknown>
  try { parsed = JSON.parse(a.body) as Record<string, unknown> } catch { return `${a.status} with a body that is not JSON: ${a.body.slice(0, 200)}` }
  if (a.status === 200) {
    const problems = parsed.problems as string[] | undefined
    if (!Array.isArray(problems)) return `200 that is not the handler's echo: ${a.body.slice(0, 200)}`
    return problems.length > 0 ? `the handler found: ${problems.join('; ')}` : null
  }
  if (a.status < 400 || a.status >= 500) return `${a.status}: ${a.body.slice(0, 200)}`
  const extra = Object.keys(parsed).filter((k) => !['statusCode', 'code', 'error', 'message'].includes(k))
  if (parsed.statusCode !== a.status || typeof parsed.error !== 'string' || typeof parsed.message !== 'string' || extra.length > 0 || (parsed.code !== undefined && typeof parsed.code !== 'string')) {
    return `${a.status} outside the error contract: ${a.body.slice(0, 200)}`
  }
  return null
}

/** How two answers differ (status, or the echo when both ran the handler), or null when they agree. */
export function difference(f: Answer, e: Answer): string | null {
  if (f.status !== e.status) return `status ${f.status} vs ${e.status}`
  if (e.status !== 200) return null
  const echo = (a: Answer): unknown => { try { return JSON.parse(a.body) } catch { return a.body } }
  const [fe, ee] = [echo(f), echo(e)]
  return JSON.stringify(fe) === JSON.stringify(ee) ? null : `echo ${JSON.stringify(fe).slice(0, 200)} vs ${JSON.stringify(ee).slice(0, 200)}`
}

export interface SchemaFuzzReport {
  seeds: number
  requests: number
  /** Enclave's statuses, counted. */
  statuses: Map<number, number>
  /** Contract breaches on Enclave, each with its seed and request. */
  violations: string[]
  /** Differences from Fastify 3 that a README-listed entry explains, by entry id. */
  explained: Map<string, number>
  /** Differences no entry explains, each with its seed, request and mutations. */
  unexplained: string[]
  /** Same as Fastify 5 (status, and echo when 200), when it was run. */
  fastify5?: { same: number; differ: number; examples: string[] }
  /** Breaches Enclave shares with Fastify 3 on the same request (README-listed ajv 6 behaviour), by id. */
  shared: Map<string, number>
  /** What breaks the contract on Fastify 3 only (a handler finding, a 5xx, a hang): for the report. */
  fastify3Only: string[]
}

/** Seeds `from` .. `from + seeds - 1`, `perSeed` requests each. */
export async function schemaFuzzRun(o: { from: number; seeds: number; perSeed: number; fastify5?: boolean }): Promise<SchemaFuzzReport> {
  const report: SchemaFuzzReport = { seeds: o.seeds, requests: 0, statuses: new Map(), violations: [], explained: new Map(), unexplained: [], shared: new Map(), fastify3Only: [], ...(o.fastify5 === true ? { fastify5: { same: 0, differ: 0, examples: [] } } : {}) }
  takeLoggedErrors()
  for (let seed = o.from; seed < o.from + o.seeds; seed++) {
    const c = drawCase(seed, o.perSeed)
    const apps: Partial<Record<Framework, App>> = {}
    try {
      apps.enclave = await declare('enclave', c.schemas)
      apps.fastify3 = await declare('fastify3', c.schemas)
      if (o.fastify5 === true) apps.fastify5 = await declare('fastify5', c.schemas).catch(() => undefined)
      for (const request of c.requests) {
        report.requests++
        const where = `seed ${seed} request ${request.index} [${request.mutations.join(' | ')}] ${request.url.slice(0, 120)}`
        const e = await answer(apps.enclave, request)
        const f = await answer(apps.fastify3, request)
        report.statuses.set(e.status, (report.statuses.get(e.status) ?? 0) + 1)
        const breach = contractBreach(e)
        const fBreach = contractBreach(f)
        const shared = breach !== null ? sharedBreach(request, f, e) : undefined
        if (shared !== undefined) report.shared.set(shared, (report.shared.get(shared) ?? 0) + 1)
        else if (breach !== null) report.violations.push(`${where}: ${breach}`)
        if (fBreach !== null && fBreach !== breach && report.fastify3Only.length < 50) report.fastify3Only.push(`${where}: ${fBreach}`)
        for (const log of takeLoggedErrors()) report.violations.push(`${where}: error logged: ${log}`)
        const diff = difference(f, e)
        if (diff !== null) {
          const id = explain(request, f, e)
          if (id !== undefined) report.explained.set(id, (report.explained.get(id) ?? 0) + 1)
          else report.unexplained.push(`${where}: Fastify 3 vs Enclave ${diff}; Fastify 3 said ${f.body.slice(0, 160)}; Enclave said ${e.body.slice(0, 160)}`)
        }
        if (apps.fastify5 !== undefined && report.fastify5 !== undefined) {
          const d5 = difference(await answer(apps.fastify5, request), e)
          if (d5 === null) report.fastify5.same++
          else { report.fastify5.differ++; if (report.fastify5.examples.length < 20) report.fastify5.examples.push(`${where}: Fastify 5 vs Enclave ${d5}`) }
        }
      }
    } catch (error) {
      report.violations.push(`seed ${seed}: the route did not boot: ${(error as Error).message}`)
    } finally {
      for (const app of Object.values(apps)) await app?.close()
    }
  }
  return report
}

export type { Schema }
