// The `router` endpoint's lookup in isolation: Enclave's router (the static-route Map in front of
// find-my-way 9, the fragment check, the plain params copy), find-my-way 9 alone, and Fastify 3's
// find-my-way 4, on the bench's 1,000 routes and its URL (the last route, two parameters). Each
// call gets a fresh URL string, as Node's parser hands one per request (a string V8 has not hashed
// yet), and the cost of making it is printed to subtract. CPU ns per call, median of 15 rounds in
// one process. `node dist/bench/router-find.js` (perf22): what the router costs per request out of
// the noise of a loaded server.
import { createRequire } from 'node:module'
import { createRouter, queryParser } from '../src/runtime/serve/router'
import type { CompiledRoute } from '../src/runtime/serve/compiled-route'
import { routerRoutes, lastRoutePath } from './servers/router-routes'

interface FindMyWayLike {
  on(method: string, path: string, handler: () => void, store: unknown): void
  find(method: string, path: string): { params: Record<string, unknown> } | null
}
type FindMyWayFactory = (options: Record<string, unknown>) => FindMyWayLike

const ROUNDS = 15
const CALLS = 200_000
// Fastify 3's own router: find-my-way 4, installed under the fastify3 alias.
const fastify3Require = createRequire(require.resolve('fastify3'))
const findMyWay4 = fastify3Require('find-my-way') as FindMyWayFactory
const findMyWay9 = require('find-my-way') as FindMyWayFactory

const parseQuery = queryParser(1000)
const enclave = createRouter({ ignoreTrailingSlash: false, caseSensitive: true, parseQuery, maxParamLength: 100 })
const fmw9 = findMyWay9({ ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: 100, querystringParser: parseQuery })
const fmw4 = findMyWay4({ ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: 100 })
for (const route of routerRoutes) {
  const store = { index: route.index }
  enclave.on(route.method, route.path, store as unknown as CompiledRoute, null)
  fmw9.on(route.method, route.path, () => {}, store)
  fmw4.on(route.method, route.path, () => {}, store)
}

const urlBytes = Buffer.from(lastRoutePath, 'latin1')
let sink = 0

/** Median CPU ns per call of `find` over ROUNDS rounds, each URL a fresh string, after one untimed round. */
function nsPerCall(find: (url: string) => unknown): number {
  const rounds: number[] = []
  for (let round = -1; round < ROUNDS; round++) {
    const start = process.cpuUsage()
    for (let i = 0; i < CALLS; i++) if (find(urlBytes.toString('latin1')) !== null) sink++
    const used = process.cpuUsage(start)
    if (round >= 0) rounds.push(((used.user + used.system) * 1000) / CALLS)
  }
  rounds.sort((a, b) => a - b)
  return rounds[ROUNDS >> 1]
}

const fresh = nsPerCall((url) => url)
console.log(`GET ${lastRoutePath} among ${routerRoutes.length} routes; CPU ns per call, the fresh URL string's ${fresh.toFixed(0)} ns taken off`)
for (const [name, find] of [
  ['Enclave (static Map, find-my-way 9, plain params)', (url: string) => enclave.find('GET', url)],
  ['find-my-way 9 alone', (url: string) => fmw9.find('GET', url)],
  ["Fastify 3's find-my-way 4", (url: string) => fmw4.find('GET', url)],
] as const) {
  console.log(`${name.padEnd(52)} ${(nsPerCall(find) - fresh).toFixed(0).padStart(6)} ns`)
}
if (sink === 0) console.log('no match')
