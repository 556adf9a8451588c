// The built-in JSON parser's steps on the bench `bulk` body (64 KB, four 16 KB chunks) and the
// `items` body (55 B), in isolation: CPU per call, median of 21 rounds, with raw's way (UTF-8
// decode, JSON.parse) alongside. `node dist/bench/json-body.js`. Where `bulk` and `items` differ
// from raw on the body, and by how much of it the safety scan (proto-poisoning, depth, number
// overflow) is, without the noise of a loaded server (issue 16).
import { bulkBody } from './servers/bulk-schema'
import { jsonParser } from '../src/runtime/serve/body/json-parser'
import { scanJsonChunksWasm, decodeScanned } from '../src/runtime/serve/body/json-scan-wasm'

const ROUNDS = 21
const BULK = Buffer.from(JSON.stringify(bulkBody))
const BULK_CHUNKS = [0, 1, 2, 3].map((k) => BULK.subarray(k * 16384, (k + 1) * 16384)).filter((chunk) => chunk.length > 0)
const ITEMS = Buffer.from('{"name":"widget","price":9.99,"tags":["blue","small"]}')
const parser = jsonParser(1000)
const fromChunks = parser.fromChunks as NonNullable<typeof parser.fromChunks>

let sink: unknown

/** Median CPU µs per call of `fn` over ROUNDS rounds of `calls` calls, after one untimed round. */
function cpuPerCall(fn: () => unknown, calls: number): number {
  const rounds: number[] = []
  for (let round = -1; round < ROUNDS; round++) {
    const start = process.cpuUsage()
    for (let i = 0; i < calls; i++) sink = fn()
    const used = process.cpuUsage(start)
    if (round >= 0) rounds.push((used.user + used.system) / calls)
  }
  rounds.sort((a, b) => a - b)
  return rounds[ROUNDS >> 1]
}

function row(name: string, micros: number, unit: 'µs' | 'ns'): void {
  const value = unit === 'µs' ? micros.toFixed(2) : (micros * 1000).toFixed(0)
  console.log(`${name.padEnd(54)} ${value.padStart(8)} ${unit}`)
}

console.log(`bulk body: ${BULK.length} bytes in ${BULK_CHUNKS.length} chunks`)
row('copy into WebAssembly memory + scan', cpuPerCall(() => scanJsonChunksWasm(BULK_CHUNKS, BULK.length, 1000), 2000), 'µs')
row('copy + scan + decode', cpuPerCall(() => { scanJsonChunksWasm(BULK_CHUNKS, BULK.length, 1000); return decodeScanned(BULK.length) }, 2000), 'µs')
row('Enclave: fromChunks (scan, decode, JSON.parse)', cpuPerCall(() => fromChunks(BULK_CHUNKS, BULK.length), 300), 'µs')
row('raw: UTF-8 decode per chunk, concatenate, JSON.parse', cpuPerCall(() => {
  let text = ''
  for (const chunk of BULK_CHUNKS) text += chunk.toString('utf8')
  return JSON.parse(text)
}, 300), 'µs')
console.log(`items body: ${ITEMS.length} bytes`)
row('copy into WebAssembly memory + scan', cpuPerCall(() => scanJsonChunksWasm([ITEMS], ITEMS.length, 1000), 200000), 'ns')
row('Enclave: fromChunks (scan, decode, JSON.parse)', cpuPerCall(() => fromChunks([ITEMS], ITEMS.length), 100000), 'ns')
row('raw: UTF-8 decode, JSON.parse', cpuPerCall(() => JSON.parse(ITEMS.toString('utf8')), 100000), 'ns')
// Every result was kept in `sink`, so no call could be optimised away.
if (sink === undefined) throw new Error('no result was computed')
