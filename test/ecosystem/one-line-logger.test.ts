import { expect } from 'chai'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import oneLineLogger from '@fastify/one-line-logger'
import type { Request } from '../../src/runtime'
import { modes, topology } from './helpers'

const probe = async (req: Request) => { req.log.info('probe says hi'); return { ok: true } }

const dirs: string[] = []
function tempLog(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'enclave-one-line-'))
  dirs.push(dir)
  return path.join(dir, 'app.log')
}

/** Reads the log until it holds `count` lines (a transport writes from a worker thread), bounded. */
async function lines(file: string, count: number): Promise<string[]> {
  let found: string[] = []
  for (let i = 0; i < 200 && found.length < count; i++) {
    found = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : []
    if (found.length < count) await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return found
}

// @fastify/one-line-logger README: `logger: { transport: { target: '@fastify/one-line-logger' } }`
// prints each line as `time - level - [reqId - METHOD url - ]message` (pino-pretty underneath).
// The logger is the server's: it is given to createServer / createApp, and every context logs through it.
describe('@fastify/one-line-logger and pino-pretty in Enclave', () => {
  after(() => { for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true }) })
  for (const mode of modes) {
    describe(`as the logger of a server built with ${mode === 'scope' ? 'createServer' : 'createApp'}`, () => {
      it('writes the access log and request.log lines on one line each, through the transport', async () => {
        const file = tempLog()
        const app = await topology(mode, {
          plugin: async () => {},
          probe,
          server: { logger: { transport: { target: '@fastify/one-line-logger', options: { destination: file, colorize: false } } } as never },
        })
        await request(app.server).get('/inside/child/probe').expect(200, { ok: true })
        const found = await lines(file, 3)
        expect(found[0]).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}[+-]\d{4} - info - req-1 - GET \/inside\/child\/probe - incoming request$/)
        expect(found[1]).to.match(/ - info - req-1 - probe says hi$/)
        expect(found[2]).to.match(/ - info - req-1 - request completed$/)
      })

      it('with one-line-logger as a stream (no worker thread), writes the same lines', async () => {
        const file = tempLog()
        const app = await topology(mode, {
          plugin: async () => {},
          probe,
          server: { logger: { level: 'info', stream: oneLineLogger({ destination: file, colorize: false, sync: true }) } as never },
        })
        await request(app.server).get('/outside/probe').expect(200, { ok: true })
        const found = await lines(file, 3)
        expect(found.map((l) => l.replace(/^.* - info - /, ''))).to.deep.equal([
          'req-1 - GET /outside/probe - incoming request',
          'req-1 - probe says hi',
          'req-1 - request completed',
        ])
      })

      it('with pino-pretty as the transport, pretty lines with the request id', async () => {
        const file = tempLog()
        const app = await topology(mode, {
          plugin: async () => {},
          probe,
          server: { logger: { transport: { target: 'pino-pretty', options: { destination: file, colorize: false, singleLine: true } } } as never },
        })
        await request(app.server).get('/root-probe').expect(200, { ok: true })
        const found = await lines(file, 3)
        expect(found[1]).to.match(/^\[[^\]]+\] INFO \(\d+\): probe says hi \{"reqId":"req-1"\}$/)
      })
    })
  }
})
