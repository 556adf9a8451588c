// The autocannon runner: spawns autocannon-worker.js (pinned like wrk) and reads its RESULT line.
import { join } from 'node:path'
import { LoadSpec, LoadResult, LOAD_GRACE_MS } from './load'
import { pinned } from './pinning'
import { runChild } from './run-child'
import { HOST } from '../servers/ready-line'

const WORKER = join(__dirname, 'autocannon-worker.js')

export async function runAutocannon(spec: LoadSpec): Promise<LoadResult> {
  const input = {
    url: `http://${HOST}:${spec.port}${spec.endpoint.path}`,
    method: spec.endpoint.method,
    headers: spec.endpoint.headers,
    body: spec.endpoint.body,
    connections: spec.connections,
    pipelining: spec.pipelining,
    seconds: spec.seconds,
  }
  const [command, args] = pinned(spec.cpuList, process.execPath, [WORKER, JSON.stringify(input)])
  const out = await runChild(command, args, spec.seconds * 1000 + LOAD_GRACE_MS)
  const line = out.stdout.split('\n').find((l) => l.startsWith('RESULT '))
  if (out.code !== 0 || line === undefined) throw new Error(`autocannon worker failed (code ${out.code}): ${out.stderr.trim()}`)
  return JSON.parse(line.slice('RESULT '.length)) as LoadResult
}
