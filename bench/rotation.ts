/**
 * Several builds or variants of one server side by side, kept hot: every server stays up for the
 * whole run, each round loads each of them once (the order rotated every round), and the CPU per
 * request of each is paired with the first one's in the same round. For a question `run.js` cannot
 * ask: two builds (a copied dist), or the same app with something extra loaded (session 23: the
 * runtime bench server with the whole public index required first). No warm-up gaps between a
 * server's runs beyond the other servers' turns.
 *
 *   node dist/bench/rotation.js --endpoint=router [--rounds=8] [--seconds=3] [--connections=32]
 *     name=path/to/server.js name2=path/to/other.js ...
 *
 * Each script is a bench server (servers/ready-line.ts: port 0 as its argument, a ready line).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { ENDPOINTS } from './harness/endpoints'
import { cpuMicros } from './harness/proc-cpu'
import { readyPort } from './harness/ready-port'
import { median, rotate } from './harness/stats'
import { runWrk } from './harness/wrk'

interface Server { readonly name: string; readonly child: ChildProcess; readonly port: number }

function flag(args: readonly string[], name: string, fallback: string): string {
  const given = args.find((a) => a.startsWith(`--${name}=`))
  return given === undefined ? fallback : given.slice(name.length + 3)
}

async function start(name: string, script: string): Promise<Server> {
  const child = spawn(process.execPath, [script, '0'], { stdio: ['pipe', 'pipe', 'inherit'] })
  let out = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => { out += chunk })
  return { name, child, port: await readyPort(child, name, () => out) }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const endpoint = ENDPOINTS.find((e) => e.id === flag(args, 'endpoint', 'two'))
  if (endpoint === undefined) throw new Error(`rotation: unknown --endpoint; choose from ${ENDPOINTS.map((e) => e.id).join(', ')}`)
  const rounds = Math.min(100, Math.max(1, Number(flag(args, 'rounds', '8'))))
  const seconds = Math.min(60, Math.max(1, Number(flag(args, 'seconds', '3'))))
  const connections = Math.min(1000, Math.max(1, Number(flag(args, 'connections', '32'))))
  const specs = args.filter((a) => !a.startsWith('--')).map((a) => a.split('=') as [string, string])
  if (specs.length < 2 || specs.some((s) => s.length !== 2)) throw new Error('rotation: give two or more name=path/to/server.js')
  const servers: Server[] = []
  try {
    for (const [name, script] of specs) servers.push(await start(name, script))
    const load = (s: Server, secs: number) => runWrk({ port: s.port, endpoint, seconds: secs, connections, pipelining: 1, cpuList: null, threads: 1 })
    for (const s of servers) await load(s, 2)
    const perRequest = new Map<string, number[]>(servers.map((s) => [s.name, []]))
    for (let round = 0; round < rounds; round++) {
      const line: string[] = []
      for (const s of rotate(servers, round)) {
        const before = cpuMicros(s.child.pid!)
        const result = await load(s, seconds)
        const after = cpuMicros(s.child.pid!)
        if (before === null || after === null || result.requests === 0) throw new Error(`rotation: no CPU figure for ${s.name}`)
        // An endpoint answering 4xx by design (items-400, svc-404) counts its statuses as wrk's errors.
        if (result.socketErrors > 0 || (endpoint.status < 400 && result.errorStatuses > 0)) throw new Error(`rotation: ${s.name} answered with errors`)
        const us = (after - before) / result.requests
        perRequest.get(s.name)!.push(us)
        line.push(`${s.name} ${us.toFixed(2)}`)
      }
      console.log(`round ${round + 1}: ${line.join('  ')}`)
    }
    const first = perRequest.get(servers[0].name)!
    for (const s of servers) {
      const own = perRequest.get(s.name)!
      const ratios = own.map((v, i) => v / first[i])
      console.log(`${s.name}: median ${median(own)!.toFixed(2)} µs/req; ÷ ${servers[0].name} per round median ${median(ratios)!.toFixed(3)} [${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}]`)
    }
  } finally {
    for (const s of servers) s.child.kill()
  }
}

main().catch((error: unknown) => { console.error(error instanceof Error ? error.message : error); process.exitCode = 1 })
