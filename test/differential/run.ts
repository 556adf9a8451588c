// Runs cases on both frameworks and sorts each into same / explained by the README / unexplained.
import { answer, type Transport } from './apps'
import type { Answer, Case } from './case'
import { describe, mismatches } from './compare'
import { generateCase } from './generate'
import { KNOWN_DIFFERENCES } from './known-differences'
import { declaredLength, regexpInChild } from './content-types'
import { writesRaw } from './reply-lifecycle'

export interface Outcome {
  c: Case
  transport: Transport
  /** Ids of the README entries needed to explain the difference (empty when the answers match). */
  explainedBy: string[]
  /** Set when the answers differ in a way no entry explains. */
  unexplained?: string
}

// Answers come within milliseconds on loopback; a framework that hangs (Fastify 3 on an
// undefined result) is waited for this long.
const NO_ANSWER_MS = 1500
// A loaded machine (CI's, or this one under a full suite) can take longer than that to build an
// app and answer (seen once: validation seeds 3-4): when only one side gave no answer, that side
// is asked again with this bound, which a framework that hangs on purpose hangs through again.
const SLOW_ANSWER_MS = 6000

/**
 * The answer, or what a client is left with: nothing within NO_ANSWER_MS, the connection closed
 * without an answer (-3), or the process's own
 * error when the framework throws outside any promise (Fastify 3 does for some replies: the
 * process would die). Other listeners (mocha's) are set aside meanwhile, so such a throw is an
 * answer to compare, not a failed test.
 */
export async function bounded(run: () => Promise<Answer>, ms = NO_ANSWER_MS): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined
  let crashed: ((error: Error) => void) | undefined
  const late = new Promise<Answer>((resolve) => {
    timer = setTimeout(() => resolve({ statusCode: -1, headers: {}, body: `no answer within ${NO_ANSWER_MS} ms` }), ms)
    crashed = (error) => resolve({ statusCode: -2, headers: {}, body: `threw outside any promise: ${error.message}` })
  })
  const others = process.listeners('uncaughtException')
  process.removeAllListeners('uncaughtException')
  process.on('uncaughtException', crashed as (error: Error) => void)
  // A connection closed without an answer (inject's `response destroyed`, a socket hang-up) is an
  // answer to compare too; caught at once, so one that comes after NO_ANSWER_MS is no unhandled rejection.
  const answered = run().catch((error: Error) => ({ statusCode: -3, headers: {}, body: `closed without an answer: ${error.message}` }))
  try {
    const answer = await Promise.race([answered, late])
    // A throw outside any promise right after the answer (Fastify 3's hook runner, once a reply
    // went out) belongs to this framework, not to the next one asked: it is waited for here.
    const after = await Promise.race([new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5)), late])
    return after !== undefined && after.statusCode === -2 ? { ...after, body: `${String(after.body)} (after answering ${answer.statusCode})` } : answer
  } finally {
    clearTimeout(timer)
    process.removeAllListeners('uncaughtException')
    for (const listener of others) process.on('uncaughtException', listener)
  }
}

/** Applies every entry that has something to say, in table order, until the answers agree. */
async function explain(f: Answer, e: Answer, c: Case, transport: Transport): Promise<string[] | undefined> {
  let current = f
  const used: string[] = []
  // The declarations Fastify 3 is asked with: the case's, until a rule answers with a replay of
  // other ones (Fastify 3 refused the case's as written: a lower-case method, a `fastify: '5.x'`
  // range); later rules then replay those, not the refused ones (plugin-api 19:71, where the
  // HEAD-routes rule's GET met the refused range again).
  let declared: { route: Case['route']; app?: Partial<Case> } = { route: c.route }
  const last: { replay?: { answer: Answer; request: Case['request']; route: Case['route']; app?: Partial<Case> } } = {}
  const lastReplay = (): typeof last.replay => last.replay // read after the rule's await
  const replay = async (request: Case['request'], route = declared.route, app = declared.app): Promise<Answer> => {
    const replayed = await bounded(() => answer('fastify3', { ...c, request, route, ...app }, transport))
    last.replay = { answer: replayed, request, route, app }
    return replayed
  }
  // A rewrite may reveal another (a replayed request meets a second rule), so the table is
  // passed over again, a bounded number of times.
  for (let pass = 0; pass < 5; pass++) {
    let changed = false
    for (const entry of KNOWN_DIFFERENCES) {
      if (mismatches(current, e).length === 0) return used
      last.replay = undefined
      const next = await entry.rewrite(current, { c, enclave: e, transport, replay })
      const replayed = lastReplay()
      if (next !== undefined && next === replayed?.answer && replayed.request === c.request) declared = { route: replayed.route, app: replayed.app }
      if (next !== undefined) {
        current = next
        if (!used.includes(entry.id)) used.push(entry.id)
        changed = true
      }
    }
    if (!changed) break
  }
  return mismatches(current, e).length === 0 ? used : undefined
}

/**
 * Asked again with SLOW_ANSWER_MS, a framework that hangs is given up by the socket's client first
 * (its own 5 s bound, apps.ts): that is no answer still, not a connection the server closed
 * (seeds 2:140, 5:110, 8:120 over http, Fastify 3 on an undefined result, in a run at load 4).
 */
function stillNoAnswer(a: Answer): Answer {
  return a.statusCode === -3 && /no answer within 5 s$/.test(String(a.body)) ? { statusCode: -1, headers: {}, body: `no answer within ${NO_ANSWER_MS} ms` } : a
}

/** The case being run, for a report when a framework throws outside any promise (cli.ts). */
export const running: { id?: string; transport?: Transport } = {}

export async function runCase(c: Case, transport: Transport): Promise<Outcome> {
  running.id = c.id
  running.transport = transport
  declaredLength.on = false
  regexpInChild.on = false
  let f = await bounded(() => answer('fastify3', c, transport))
  let e = await bounded(() => answer('enclave', c, transport))
  if (f.statusCode === -1 && e.statusCode !== -1) f = stillNoAnswer(await bounded(() => answer('fastify3', c, transport), SLOW_ANSWER_MS))
  else if (e.statusCode === -1 && f.statusCode !== -1) e = stillNoAnswer(await bounded(() => answer('enclave', c, transport), SLOW_ANSWER_MS))
  const direct = mismatches(f, e)
  if (direct.length === 0) return { c, transport, explainedBy: [] }
  // Fastify 3.27.4 has no HEAD routes (README: GET routes answer HEAD by default): Enclave's HEAD
  // must be its own GET without the body, and that GET is compared with Fastify 3's GET.
  // (Enclave's 405 to a HEAD is no GET's: the path has no GET route, see the 405 entry.)
  if (c.app === undefined && c.head === undefined && c.server?.exposeHeadRoutes !== false && c.request.method === 'HEAD' && c.route.method === 'GET' && f.statusCode === 404 && e.statusCode !== 405) {
    const get: Case = { ...c, request: { ...c.request, method: 'GET' } }
    const eGet = await bounded(() => answer('enclave', get, transport))
    // Enclave's 404 to the HEAD is its GET's where that GET's handler calls `reply.callNotFound()`
    // (reply-lifecycle: seed 3:182); else it is a not-found of Enclave's, for the rules below
    // (whose not-found handlers may echo the method: seed 4:36).
    if (e.statusCode !== 404 || (c.lifecycle !== undefined && eGet.statusCode === 404)) return await headAsGet(c, transport, e, eGet, get)
  }
  // The head-routes family asks Fastify 3 with `exposeHeadRoutes: true`: where its HEAD is its own
  // GET without the body, as Enclave's must be, the two GETs are what differ (and are compared).
  if (c.head !== undefined && c.request.method === 'HEAD') {
    const get: Case = { ...c, request: { ...c.request, method: 'GET' } }
    const fGet = await bounded(() => answer('fastify3', get, transport))
    if (f.bootError === undefined && mismatches(headOfGet(c, transport, fGet, f), f).length === 0) return await headAsGet(c, transport, e, await bounded(() => answer('enclave', get, transport)), get)
  }
  const used = await explain(f, e, c, transport)
  if (used !== undefined) return { c, transport, explainedBy: used }
  return { c, transport, explainedBy: [], unexplained: describe(direct) }
}

/** Enclave's HEAD must be its own GET without the body; that GET is then compared with Fastify 3's GET. */
async function headAsGet(c: Case, transport: Transport, e: Answer, eGet: Answer, get: Case): Promise<Outcome> {
  const headSelf = mismatches(headOfGet(c, transport, eGet, e), e)
  if (headSelf.length > 0) return { c, transport, explainedBy: [], unexplained: `HEAD is not GET without its body: ${describe(headSelf)}` }
  const outcome = await runCase(get, transport)
  return { ...outcome, c, explainedBy: outcome.unexplained === undefined ? ['head-routes', ...outcome.explainedBy] : [] }
}

/** What a framework's HEAD must answer when it is its GET (`got`) without the body; `head` is the HEAD answer it gave. */
function headOfGet(c: Case, transport: Transport, got: Answer, head: Answer): Answer {
  // A HEAD answer has no body to frame: Node sends no `transfer-encoding: chunked` on one (nor
  // does Fastify 3 with exposeHeadRoutes), where the GET of a stream has it.
  const getHeaders = { ...got.headers }
  delete getHeaders['transfer-encoding']
  // A not-found answer names the method asked (`Route HEAD:/l not found`): the GET's body read as the HEAD's (seed 3:182).
  const notFound = got.body as { message?: unknown } | null
  if (got.statusCode === 404 && typeof notFound?.message === 'string' && notFound.message.startsWith('Route GET:') && getHeaders['content-length'] !== undefined) {
    getHeaders['content-length'] = String(Number(getHeaders['content-length']) + 1)
  }
  // Node writes a head sent with a text body in the body's encoding (UTF-8) and a head alone in
  // Latin-1, so over a socket a non-ASCII header value of the GET reads as its UTF-8 bytes
  // (`/Ã©` for `/é`: seed 216:40); Fastify 3 writes its GET the same way. Compared as sent.
  if (transport !== 'inject') {
    for (const [name, value] of Object.entries(getHeaders)) {
      if (head.headers[name] !== value && Buffer.from(value, 'latin1').toString('utf8') === head.headers[name]) getHeaders[name] = head.headers[name] as string
    }
  }
  // Hooks that write the method they ran for into a header (the head-routes family's) wrote GET there.
  if (c.head !== undefined) for (const [name, value] of Object.entries(getHeaders)) if (/^GET\b/.test(value) && head.headers[name] === value.replace(/^GET/, 'HEAD')) getHeaders[name] = head.headers[name] as string
  // A body the handler wrote to `reply.raw` itself is captured by inject on a HEAD too (as
  // Fastify 3's and 5's inject, light-my-request, capture it: a socket's client gets none).
  const rawBody = transport === 'inject' && c.lifecycle !== undefined && writesRaw(c.lifecycle)
  return got.statusCode < 0 ? got : { ...got, headers: getHeaders, body: rawBody ? got.body : '' }
}

// Node's HTTP client refuses header values outside visible ASCII and a path with a space or a
// character above U+00FF, and sends one in U+0080-U+00FF as a raw byte the server cannot parse (its
// 400 has a body a HEAD's client then reads as a next response): inject takes them. A
// Content-Length that is not the body's would leave the socket waiting for bytes or reading the
// rest as the next request.
function sendable(c: Case): boolean {
  const length = c.request.headers?.['content-length']
  if (length !== undefined && Number(length) !== Buffer.byteLength(c.request.payload ?? '')) return false
  return /^[\x21-\x7e]*$/.test(c.request.url) && Object.values(c.request.headers ?? {}).every((value) => /^[\x20-\x7e\t]*$/.test(value))
}

/**
 * `count` cases of `seed`; every `httpEvery`th also goes over a real socket, every `http2Every`th
 * over h2c (both servers built with `http2: true`; app-shape cases build their own servers and
 * stay on HTTP/1). `family`: only that family's cases (same ids).
 */
export async function runSeed(seed: number, count: number, httpEvery = 0, family?: string, http2Every = 0): Promise<Outcome[]> {
  const out: Outcome[] = []
  for (let index = 0; index < count; index++) {
    const c = generateCase(seed, index)
    if (family !== undefined && c.family !== family) continue
    // The http2 family's requests are HTTP/2's own (an :authority, trailers, a reset): h2c only.
    if (c.request.h2 !== undefined) { out.push(await runCase(c, 'http2')); continue }
    out.push(await runCase(c, 'inject'))
    if (httpEvery > 0 && index % httpEvery === 0 && sendable(c)) out.push(await runCase(c, 'http'))
    if (http2Every > 0 && index % http2Every === 0 && c.app === undefined && sendable(c)) out.push(await runCase(c, 'http2'))
  }
  return out
}
