/**
 * Child process that runs autocannon's programmatic API against one endpoint and prints a
 * `RESULT <json>` line: the load generator stays out of the harness process, as wrk does.
 * Input: one JSON argument { url, method, headers, body, connections, pipelining, seconds }.
 */
interface WorkerInput { url: string; method: string; headers: Record<string, string>; body: string | null; connections: number; pipelining: number; seconds: number }

interface AutocannonResult {
  duration: number
  errors: number
  timeouts: number
  '4xx': number
  '5xx': number
  latency: { p99: number }
  requests: { total: number }
}

// autocannon ships no type declarations; this is the part of its API used here.
type Autocannon = (options: Record<string, unknown>, done: (error: Error | null, result: AutocannonResult) => void) => unknown
const autocannon = require('autocannon') as Autocannon

const input = JSON.parse(process.argv[2] ?? '{}') as WorkerInput

autocannon({
  url: input.url,
  method: input.method,
  body: input.body ?? undefined,
  headers: input.body === null ? input.headers : { ...input.headers, 'content-type': 'application/json' },
  connections: input.connections,
  pipelining: input.pipelining,
  duration: input.seconds,
  timeout: 10,
}, (error, result) => {
  if (error !== null) {
    process.stderr.write(`${error.stack ?? error.message}\n`)
    process.exit(1)
  }
  const summary = {
    requests: result.requests.total,
    seconds: result.duration,
    rps: result.requests.total / result.duration,
    p99Ms: result.latency.p99,
    errorStatuses: result['4xx'] + result['5xx'],
    socketErrors: result.errors + result.timeouts,
  }
  process.stdout.write(`RESULT ${JSON.stringify(summary)}\n`)
})
