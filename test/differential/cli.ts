// More seeds on demand: `npm run differential -- --seeds 1-20 --count 400 --http-every 10` (`--http2-every 5`: also over h2c)
// (`--family app`: only that family's cases, under the same seed:index ids).
// Prints each difference README does not list (with its seed:index, to replay) and how often
// each listed one was needed; exits 1 when any is unlisted.
import { running, runSeed, type Outcome } from './run'

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback)
}

async function main(): Promise<void> {
  // Fastify 3 can throw outside any promise (its router asserts, its hook runner crashes): name the case.
  process.on('uncaughtException', (error) => {
    console.log(`uncaught exception during case ${running.id} (${running.transport}): ${error.stack}`)
    process.exit(2)
  })
  const [from, to] = option('seeds', '1-5').split('-').map(Number) as [number, number | undefined]
  const count = Number(option('count', '300'))
  const httpEvery = Number(option('http-every', '10'))
  const http2Every = Number(option('http2-every', '0'))
  const family = process.argv.includes('--family') ? option('family', '') : undefined
  const started = Date.now()
  const outcomes: Outcome[] = []
  for (let seed = from; seed <= (to ?? from); seed++) outcomes.push(...await runSeed(seed, count, httpEvery, family, http2Every))
  const unlisted = outcomes.filter((o) => o.unexplained !== undefined)
  for (const o of unlisted) console.log(`[${o.c.id} ${o.transport} ${o.c.family}] ${o.c.summary}\n    => ${o.unexplained}\n`)
  const used: Record<string, number> = {}
  for (const o of outcomes) for (const id of o.explainedBy) used[id] = (used[id] ?? 0) + 1
  const same = outcomes.filter((o) => o.unexplained === undefined && o.explainedBy.length === 0).length
  console.log(`${outcomes.length} requests in ${Date.now() - started} ms: ${same} alike, ${outcomes.length - same - unlisted.length} differ as README lists, ${unlisted.length} unlisted`)
  console.log('listed differences used:', used)
  const families: Record<string, number> = {}
  for (const o of outcomes) families[`${o.c.family}${o.transport === 'inject' ? '' : ` (${o.transport})`}`] = (families[`${o.c.family}${o.transport === 'inject' ? '' : ` (${o.transport})`}`] ?? 0) + 1
  console.log('requests per family:', families, 'under other ajv options:', outcomes.filter((o) => o.c.ajv !== undefined).length)
  process.exit(unlisted.length > 0 ? 1 : 0)
}

void main()
