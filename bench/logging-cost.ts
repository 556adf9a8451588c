// CPU per request with pino logging on (access log + a child logger per request, lines to
// /dev/null) vs off, same route, paired rounds alternating the order. `node dist/bench/logging-cost.js [rounds] [seconds]`.
// The server runs in a child process and reports its own CPU time; autocannon runs here.
import { fork } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { createServer } from '../src/runtime'

type Autocannon = (options: Record<string, unknown>, done: (error: Error | null, result: { requests: { total: number }; errors: number }) => void) => unknown
const autocannon = require('autocannon') as Autocannon

async function serve(mode: string): Promise<void> {
  const app = createServer(mode === 'on' ? { logger: { stream: createWriteStream('/dev/null') } } : {})
  app.get('/', { schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } } }, () => ({ hello: 'world' }))
  const address = await app.listen({ port: 0 })
  let start = process.cpuUsage()
  process.on('message', (message) => {
    if (message === 'reset') { start = process.cpuUsage(); process.send!('reset-done'); return }
    const used = process.cpuUsage(start)
    process.send!({ cpuMicros: used.user + used.system }, undefined, {}, () => process.exit(0))
  })
  process.send!({ address })
}

function round(mode: string, seconds: number): Promise<{ mode: string; requests: number; cpuPerRequest: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['serve', mode])
    child.once('message', (first: { address: string }) => {
      // Warm up 1 s, then measure `seconds`.
      autocannon({ url: first.address, connections: 20, duration: 1 }, () => {
        child.send('reset')
        child.once('message', () => {
          autocannon({ url: first.address, connections: 20, duration: seconds }, (error, result) => {
            if (error !== null) return reject(error)
            child.once('message', (m: { cpuMicros: number }) => resolve({ mode, requests: result.requests.total, cpuPerRequest: m.cpuMicros / result.requests.total }))
            child.send('stop')
          })
        })
      })
    })
  })
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3)
  const seconds = Number(process.argv[3] ?? 2)
  const ratios: number[] = []
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? ['off', 'on'] : ['on', 'off']
    const results: Record<string, number> = {}
    for (const mode of order) {
      const r = await round(mode, seconds)
      results[mode] = r.cpuPerRequest
      console.log(`round ${i + 1} logging ${mode}: ${r.requests} requests, ${r.cpuPerRequest.toFixed(1)} µs CPU per request`)
    }
    ratios.push(results.on / results.off)
  }
  ratios.sort((a, b) => a - b)
  console.log(`CPU per request, logging on / off: median ${ratios[Math.floor(ratios.length / 2)].toFixed(2)}x (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})`)
}

if (process.argv[2] === 'serve') void serve(process.argv[3])
else void main()
