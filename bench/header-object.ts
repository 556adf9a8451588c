/**
 * The `headers` request's header object without a server: Node's own `raw.headers` getter against
 * Enclave's headersOf (src/runtime/serve/request-headers.ts), on the bench's 31 header lines as wrk
 * sends them (lower case) and as a browser does (Title-Case), in alternating blocks in one process.
 *
 *   node dist/bench/header-object.js [--rounds=15] [--count=50000]
 *
 * Each call gets a fresh IncomingMessage whose raw list is a fresh copy (as the parser gives), so
 * neither side finds a built object; the copy and the message are timed alone and taken off both.
 * Prints ns per request for each, and their ratio (median, range) over the rounds.
 */
import { IncomingMessage } from 'node:http'
import { headersOf } from '../src/runtime/serve/request-headers'
import { requestHeaders } from './servers/headers-schema'
import { flag } from './harness/tool-flags'

const symbols = Object.getOwnPropertySymbols(new IncomingMessage(null as never))
const kHeadersCount = symbols.find((s) => s.description === 'kHeadersCount') as symbol

const titleCase = (name: string): string => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase())
const lines = (caseOf: (name: string) => string): string[] => {
  const list = [caseOf('host'), '127.0.0.1:3000']
  for (const [name, value] of Object.entries(requestHeaders)) list.push(caseOf(name), value)
  return list
}

function message(list: readonly string[]): IncomingMessage {
  const raw = new IncomingMessage(null as never)
  // Fresh strings each time, as the parser makes them (not the literals' interned ones).
  raw.rawHeaders = list.map((s) => Buffer.from(s, 'latin1').toString('latin1'))
  ;(raw as unknown as Record<symbol, number>)[kHeadersCount] = list.length
  return raw
}

function timeBlock(list: readonly string[], count: number, read: (raw: IncomingMessage) => unknown): number {
  let keep = 0
  const start = process.cpuUsage()
  for (let i = 0; i < count; i++) {
    const raw = message(list)
    if (read(raw) !== undefined) keep++
  }
  const used = process.cpuUsage(start)
  if (keep < 0) throw new Error('unreachable')
  return ((used.user + used.system) * 1000) / count
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

function main(): void {
  const rounds = Number(flag('rounds') ?? 15)
  const count = Number(flag('count') ?? 50_000)
  if (!(rounds >= 1 && rounds <= 200) || !(count >= 100 && count <= 10_000_000)) throw new Error('header-object: --rounds 1-200, --count 100-10000000')
  for (const [label, list] of [['lower case (wrk)', lines((n) => n)], ['Title-Case (browser)', lines(titleCase)]] as const) {
    const node: number[] = []
    const ours: number[] = []
    const ratios: number[] = []
    for (let round = 0; round < rounds + 2; round++) {
      const base = timeBlock(list, count, (raw) => raw.rawHeaders)
      const a = timeBlock(list, count, (raw) => raw.headers) - base
      const b = timeBlock(list, count, (raw) => headersOf(raw)) - base
      if (round < 2) continue // warm-up
      node.push(a)
      ours.push(b)
      ratios.push(b / a)
    }
    process.stdout.write(`${label}: node's getter ${median(node).toFixed(0)} ns, headersOf ${median(ours).toFixed(0)} ns; `
      + `headersOf ÷ node ${median(ratios).toFixed(3)} [${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}] over ${rounds} rounds\n`)
  }
}

main()
