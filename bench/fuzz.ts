/**
 * `npm run fuzz -- --seeds=5000 --from=1`: the feature fuzz of test/hardening/fuzz-features.test.ts
 * on demand, over as many seeds as asked. One Enclave app (test/hardening/fuzz-app.ts) in this
 * process; sessions (test/hardening/fuzz-traffic.ts) go over loopback with bounded parallelism,
 * each judged against the error contract (test/hardening/fuzz-run.ts). Prints every violation
 * with the seed that replays it (first 20), the status counts, the sessions the server closed
 * without an answer, unhandled rejections and the time taken. Exit code 1 on any violation.
 * `--h2=1` runs the HTTP/2 frame fuzz instead (test/hardening/h2-fuzz-*.ts; `--tls=1` for h2 over TLS),
 * `--ws=1` the websocket frame fuzz (test/hardening/ws-fuzz*.ts). `--inputs=1` the schema-aware input
 * fuzz (test/hardening/schema-fuzz-*.ts): `--seeds` drawn routes, `--per=40` requests each, on Enclave
 * and Fastify 3.27.4 (`--f5=1`: Fastify 5 beside, its differences counted, not judged).
 */
import { FUZZ_SERVER_OPTIONS, fuzzApp } from '../test/hardening/fuzz-app'
import { exchange, judge, notOurs } from '../test/hardening/fuzz-run'
import { fuzzSession } from '../test/hardening/fuzz-traffic'
import { h2FuzzRun } from '../test/hardening/h2-fuzz-drive'
import { wsFuzzRun } from '../test/hardening/ws-fuzz-drive'
import { schemaFuzzRun } from '../test/hardening/schema-fuzz-run'
import { tlsCert, tlsKey } from '../test/support/tls'

/** A logged object as text; a circular one (a multipart error's fields) must not make the fuzz's own logger throw. */
function printable(obj: unknown): string {
  try { return JSON.stringify(obj) ?? String(obj) } catch { return String((obj as { err?: unknown } | null)?.err ?? obj) }
}

interface FuzzOptions { seeds: number; from: number; parallel: number; tls: number; h2: number; ws: number; inputs: number; per: number; f5: number }

function parseOptions(argv: readonly string[]): FuzzOptions {
  const options: FuzzOptions = { seeds: 2000, from: 1, parallel: 12, tls: 0, h2: 0, ws: 0, inputs: 0, per: 40, f5: 0 }
  for (const arg of argv) {
    const match = /^--(seeds|from|parallel|tls|h2|ws|inputs|per|f5)=(\d+)$/.exec(arg)
    if (match === null) throw new Error(`fuzz: unexpected argument '${arg}'; flags: --seeds=2000 --from=1 --parallel=12 --tls=0 (1: over https) --h2=0 (1: HTTP/2 frame fuzz, test/hardening/h2-fuzz-frames.ts) --ws=0 (1: websocket frame fuzz, test/hardening/ws-fuzz.ts) --inputs=0 (1: schema-aware input fuzz against Fastify 3, test/hardening/schema-fuzz-run.ts; --per=40 requests per drawn route, --f5=1 Fastify 5 beside)`)
    options[match[1] as keyof FuzzOptions] = Math.min(Number(match[2]), match[1] === 'parallel' ? 64 : 2 ** 31)
  }
  return options
}

/** `--h2=1`: the HTTP/2 frame fuzz (h2c, or TLS with --tls=1); prints the outcome counts and each violation with its seed. */
async function mainH2({ seeds, from, parallel, tls }: FuzzOptions): Promise<void> {
  const logged: string[] = []
  const error = (obj: unknown, msg?: string): void => {
    const err = (obj as { err?: Error & { code?: string } } | null)?.err ?? (obj as Error & { code?: string })
    if (!notOurs(err)) logged.push(`${msg ?? ''} ${printable(obj).slice(0, 300)}`)
  }
  const unhandled: unknown[] = []
  process.on('unhandledRejection', (e) => unhandled.push(e))
  // close() leaves no ref'd handle while it waits: keep the process up until the report is printed.
  const keepAlive = setInterval(() => undefined, 1_000)
  const started = Date.now()
  const r = await h2FuzzRun({ from, seeds, parallel: Math.min(parallel, 16), secure: tls > 0, logger: { info() {}, debug() {}, warn() {}, error } })
  clearInterval(keepAlive)
  const list = (m: Map<number, number>): string => [...m].sort((a, b) => a[0] - b[0]).map(([k, n]) => `${k}x${n}`).join(' ')
  console.log(`${seeds} HTTP/2 connections${tls > 0 ? ' over TLS' : ' (h2c)'} from seed ${from} in ${((Date.now() - started) / 1000).toFixed(1)} s; ${r.served} streams reached Enclave`)
  console.log(`statuses: ${list(r.statuses)}; GOAWAY codes: ${list(r.goaways)}; RST_STREAM: ${r.resets}; timed out: ${r.timedOut}`)
  console.log(`after: ${JSON.stringify(r.after)}${r.left.length > 0 ? ` (seeds left open: ${r.left.join(',')})` : ''}`)
  console.log(`violations: ${r.violations.length}`)
  for (const v of r.violations.slice(0, 20)) console.log(`  ${v.slice(0, 500)}`)
  console.log(`error logs: ${logged.length}`)
  for (const l of logged.slice(0, 10)) console.log(`  ${l}`)
  console.log(`unhandled rejections: ${unhandled.length}`)
  for (const u of unhandled.slice(0, 5)) console.log(`  ${u instanceof Error ? u.stack ?? u.message : String(u)}`)
  const healthy = r.after.status === 200 && r.after.sessions === 0 && r.after.sockets === 0
  process.exitCode = r.violations.length + logged.length + unhandled.length > 0 || !healthy ? 1 : 0
}

/** `--ws=1`: the websocket frame fuzz; prints the close codes, the echoes and each violation with its seed. */
async function mainWs({ seeds, from, parallel }: FuzzOptions): Promise<void> {
  const logged: string[] = []
  const error = (obj: unknown, msg?: string): void => {
    const err = (obj as { err?: Error & { code?: string } } | null)?.err ?? (obj as Error & { code?: string })
    if (!notOurs(err)) logged.push(`${msg ?? ''} ${printable(obj).slice(0, 300)}`)
  }
  const started = Date.now()
  const r = await wsFuzzRun(from, seeds, parallel, { info() {}, debug() {}, warn() {}, error })
  console.log(`${seeds} websocket connections from seed ${from} in ${((Date.now() - started) / 1000).toFixed(1)} s; ${r.echoed} messages echoed`)
  console.log(`close codes: ${[...r.closeCodes].sort((a, b) => a[0] - b[0]).map(([k, n]) => `${k}x${n}`).join(' ')}; plain upgrade after: ${r.controlStatus}; sockets left: ${r.sockets}`)
  console.log(`violations: ${r.violations.length}`)
  for (const v of r.violations.slice(0, 20)) console.log(`  ${v.slice(0, 500)}`)
  console.log(`error logs: ${logged.length}`)
  for (const l of logged.slice(0, 10)) console.log(`  ${l}`)
  process.exitCode = r.violations.length + logged.length > 0 || r.controlStatus !== 101 || r.sockets !== 0 ? 1 : 0
}

/** `--inputs=1`: the schema-aware input fuzz; prints Enclave's statuses, each violation, and every difference from Fastify 3 by README entry. */
async function mainInputs({ seeds, from, per, f5 }: FuzzOptions): Promise<void> {
  const started = Date.now()
  const r = await schemaFuzzRun({ from, seeds, perSeed: per, fastify5: f5 > 0 })
  const list = <K>(m: Map<K, number>): string => [...m].map(([k, n]) => `${String(k)} x${n}`).join('; ')
  console.log(`${r.seeds} drawn routes from seed ${from}, ${r.requests} requests in all on Enclave and Fastify 3 in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  console.log(`Enclave statuses: ${list(r.statuses)}`)
  console.log(`violations: ${r.violations.length}`)
  for (const v of r.violations.slice(0, 20)) console.log(`  ${v.slice(0, 600)}`)
  console.log(`differences README lists: ${list(r.explained) || 'none'}`)
  console.log(`shared with Fastify 3 (README lists): ${list(r.shared) || 'none'}`)
  console.log(`differences no entry explains: ${r.unexplained.length}`)
  for (const u of r.unexplained.slice(0, 20)) console.log(`  ${u.slice(0, 600)}`)
  console.log(`Fastify 3's own breaches of the contract: ${r.fastify3Only.length}`)
  for (const b of r.fastify3Only.slice(0, 5)) console.log(`  ${b.slice(0, 300)}`)
  if (r.fastify5 !== undefined) {
    console.log(`Fastify 5: same answer ${r.fastify5.same}, different ${r.fastify5.differ} (ajv 8 and its array coercion: not judged)`)
    for (const x of r.fastify5.examples.slice(0, 10)) console.log(`  ${x.slice(0, 300)}`)
  }
  process.exitCode = r.violations.length + r.unexplained.length > 0 ? 1 : 0
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2))
  if (options.inputs > 0) return mainInputs(options)
  if (options.h2 > 0) return mainH2(options)
  if (options.ws > 0) return mainWs(options)
  const { seeds, from, parallel, tls } = options
  const secure = tls > 0
  const logged: string[] = []
  const error = (obj: unknown, msg?: string): void => {
    const err = (obj as { err?: Error & { code?: string } } | null)?.err ?? (obj as Error & { code?: string })
    if (!notOurs(err)) logged.push(`${msg ?? ''} ${printable(obj).slice(0, 300)}`)
  }
  const logger = { info() {}, debug() {}, warn() {}, error }
  const { app, port } = await fuzzApp({ ...FUZZ_SERVER_OPTIONS, logger, ...(secure ? { https: { key: tlsKey, cert: tlsCert } } : {}) })
  const unhandled: unknown[] = []
  process.on('unhandledRejection', (error) => unhandled.push(error))
  const started = Date.now()
  const statuses = new Map<number, number>()
  const violations: string[] = []
  let silent = 0
  let next = from
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < from + seeds) {
      const session = fuzzSession(next++)
      const verdict = judge(session, await exchange(port, session, secure))
      for (const answer of verdict.answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
      if (verdict.silentClose) silent++
      for (const v of verdict.violations) violations.push(`seed ${session.seed} ${session.delivery} ${JSON.stringify(session.bytes.subarray(0, 200).toString('latin1'))}: ${v}`)
    }
  }))
  await app.close()
  console.log(`${seeds} sessions${secure ? ' over TLS' : ''} from seed ${from} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  console.log(`statuses: ${[...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}x${n}`).join(' ')}`)
  console.log(`closed without an answer (first request whole): ${silent}`)
  console.log(`violations: ${violations.length}`)
  for (const v of violations.slice(0, 20)) console.log(`  ${v}`)
  console.log(`error logs: ${logged.length}`)
  for (const l of logged.slice(0, 10)) console.log(`  ${l}`)
  console.log(`unhandled rejections: ${unhandled.length}`)
  for (const u of unhandled.slice(0, 5)) console.log(`  ${String(u)}`)
  process.exitCode = violations.length + logged.length + unhandled.length > 0 ? 1 : 0
}

void main()
