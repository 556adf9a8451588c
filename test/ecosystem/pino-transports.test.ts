import { expect } from 'chai'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import fastify5 from 'fastify5'
import { server } from '../support/servers'

// pino's multi-target transport as the pino docs and Fastify's logging guide write it: one
// worker thread, pretty lines for people (pino-pretty, from info) and a JSON file for the
// collector (pino/file, warnings only), each target with its own level. Fastify 3.27.4's pino 6
// has no transports: compared with Fastify 5, whose pino takes the same option.
const dirs: string[] = []
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'enclave-transports-'))
  dirs.push(dir)
  return dir
}

/** The file's lines once it holds `count` (the worker writes them asynchronously): bounded, generous for a loaded machine. */
async function lines(file: string, count: number): Promise<string[]> {
  let found: string[] = []
  for (let i = 0; i < 1_500 && found.length < count; i++) {
    found = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : []
    if (found.length < count) await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return found
}

function loggerOptions(dir: string): object {
  return {
    level: 'info',
    transport: {
      targets: [
        { target: 'pino-pretty', level: 'info', options: { destination: path.join(dir, 'pretty.log'), colorize: false, singleLine: true, ignore: 'pid,hostname,time' } },
        { target: 'pino/file', level: 'warn', options: { destination: path.join(dir, 'warn.json') } },
      ],
    },
  }
}

/** One request on a server logging through the two targets: what each file holds. */
async function logged(app: any, dir: string): Promise<{ pretty: string[]; warnings: unknown[] }> {
  app.get('/orders/:id', async (request: any) => {
    request.log.info('looking up the order')
    request.log.warn({ orderId: request.params.id }, 'slow lookup')
    return { id: request.params.id }
  })
  try {
    const answer = await app.inject({ url: '/orders/7' })
    expect(answer.statusCode).to.equal(200)
    const pretty = await lines(path.join(dir, 'pretty.log'), 4)
    const warnings = (await lines(path.join(dir, 'warn.json'), 1)).map((line) => {
      const { level, msg, reqId, orderId } = JSON.parse(line)
      return { level, msg, reqId, orderId }
    })
    // Each pretty line as `LEVEL (...): message`, without the request/response objects the two frameworks serialize differently.
    return { pretty: pretty.map((line) => /^(\w+)[^:]*: (.*?)(?: \{.*)?$/.exec(line)?.slice(1, 3).join(' ') ?? line), warnings }
  } finally { await app.close() }
}

describe('pino transports (pino-pretty and pino/file targets) as Enclave\'s logger', () => {
  after(() => { for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true }) })

  it('writes each line to every target whose level it reaches, with the request id, as Fastify 5 does', async function () {
    this.timeout(60_000)
    const ourDir = tempDir()
    const ours = await logged(server({ logger: loggerOptions(ourDir) } as never), ourDir)
    expect(ours).to.deep.equal({
      pretty: ['INFO incoming request', 'INFO looking up the order', 'WARN slow lookup', 'INFO request completed'],
      warnings: [{ level: 40, msg: 'slow lookup', reqId: 'req-1', orderId: '7' }],
    })
    const theirDir = tempDir()
    const theirs = await logged(fastify5({ logger: loggerOptions(theirDir) } as never), theirDir)
    expect(ours).to.deep.equal(theirs)
  })
})
