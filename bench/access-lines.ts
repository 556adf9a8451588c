/**
 * The two access lines of one request ("incoming request", "request completed"), in one process,
 * through Fastify 3's logger (pino 6: a child per request, its serializers, no redaction) and
 * through the logger Enclave makes (pino 10, also a child per request, authorization and cookie
 * redacted), both to /dev/null through their own pino.destination (sonic-boom 1 and 4, sync).
 * Also the destinations alone, writing the same two lines. Variants alternate in blocks; CPU µs
 * per request (process.cpuUsage), medians over blocks.
 *
 *   node dist/bench/access-lines.js [--blocks=20] [--per-block=20000]
 */
import { openSync, writeSync } from 'node:fs'
import { resolveLogger } from '../src/runtime/server/logger'
import { flag } from './harness/tool-flags'

interface Pino { (options: object, stream: unknown): PinoLogger; destination(options: object): { write(line: string): void } }
interface PinoLogger { info(fields: object, msg: string): void; child(bindings: object): PinoLogger }
// fastify 3's own pino (6.x), as fastify3 requires it.
const pino6 = require(require.resolve('pino', { paths: [require.resolve('fastify3')] })) as Pino
const pino10 = require('pino') as Pino

const request = {
  id: 'req-6j1', method: 'GET', url: '/svc/users/42', hostname: '127.0.0.1:40565', ip: '127.0.0.1',
  headers: { host: '127.0.0.1:40565', 'x-api-key': 'bench-key-0123456789' }, socket: { remotePort: 48268 },
}
const reply = { statusCode: 200, raw: { statusCode: 200 } }
// Fastify 3.27.4's lib/logger.js serializers.
const fastify3Serializers = {
  req: (req: typeof request) => ({ method: req.method, url: req.url, version: req.headers['accept-version' as 'host'], hostname: req.hostname, remoteAddress: req.ip, remotePort: req.socket.remotePort }),
  res: (res: typeof reply) => ({ statusCode: res.statusCode }),
}
const line1 = '{"level":30,"time":1795793949670,"pid":12747,"hostname":"vm","reqId":"req-6j1","req":{"method":"GET","url":"/svc/users/42","hostname":"127.0.0.1:40565","remoteAddress":"127.0.0.1","remotePort":48268},"msg":"incoming request"}\n'
const line2 = '{"level":30,"time":1795793949671,"pid":12747,"hostname":"vm","reqId":"req-6j1","res":{"statusCode":200},"responseTime":0.8364489999994476,"msg":"request completed"}\n'

function main(): void {
  const blocks = Number(flag('blocks') ?? 20)
  const perBlock = Number(flag('per-block') ?? 20000)
  const sonic1 = pino6.destination({ dest: '/dev/null', sync: true })
  const sonic4 = pino10.destination({ dest: '/dev/null', sync: true })
  const fastify3 = pino6({ level: 'info', serializers: fastify3Serializers }, sonic1)
  const enclave = resolveLogger({ level: 'info', file: '/dev/null' }).log
  const fd = openSync('/dev/null', 'a')
  let n = 0
  const variants: Record<string, () => void> = {
    'fastify 3 (pino 6, child per request)': () => {
      const log = fastify3.child({ reqId: request.id })
      log.info({ req: request }, 'incoming request')
      log.info({ res: reply, responseTime: 0.42 + (n++ & 7) }, 'request completed')
    },
    'Enclave (pino 10, child per request, redaction)': () => {
      // As serve-context.ts requestLog() makes request.log when the logger is pino.
      const log = (enclave as unknown as PinoLogger).child({ reqId: request.id })
      log.info({ req: request }, 'incoming request')
      log.info({ res: reply, responseTime: 0.42 + (n++ & 7) }, 'request completed')
    },
    'sonic-boom 1 (pino 6), the two lines': () => { sonic1.write(line1); sonic1.write(line2) },
    'sonic-boom 4 (pino 10), the two lines': () => { sonic4.write(line1); sonic4.write(line2) },
    'fs.writeSync, the two lines': () => { writeSync(fd, line1); writeSync(fd, line2) },
  }
  const names = Object.keys(variants)
  const samples = new Map(names.map((name) => [name, [] as number[]]))
  for (const name of names) for (let i = 0; i < perBlock; i++) variants[name]()
  for (let block = 0; block < blocks; block++) {
    for (const name of block % 2 === 0 ? names : [...names].reverse()) {
      const run = variants[name]
      const start = process.cpuUsage()
      for (let i = 0; i < perBlock; i++) run()
      const used = process.cpuUsage(start)
      samples.get(name)!.push((used.user + used.system) / perBlock)
    }
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]
  for (const name of names) {
    const values = samples.get(name)!
    console.log(`${name.padEnd(42)} ${median(values).toFixed(3)} µs/request  [${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}]`)
  }
}

main()
