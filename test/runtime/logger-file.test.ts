// Fastify 3's `logger: { file }` (docs/operations.md, "Logs"): the lines are appended to that file through
// pino.destination, instead of being silently dropped in favour of stdout.
import { expect } from 'chai'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { createServer } from '../../src/runtime'

describe('logs: logger.file (Fastify 3\'s option, dx2 item 8)', () => {
  let dir: string
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'enclave-log-')) })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('appends every line, the access log included, to the file, as JSON with the request id', async () => {
    const file = join(dir, 'access.log')
    writeFileSync(file, '{"earlier":true}\n')
    const app = createServer({ logger: { level: 'info', file } })
    app.get('/hello', async (request) => { request.log.info({ step: 'handler' }, 'in handler'); return { hi: true } })
    try {
      expect((await app.inject({ url: '/hello' })).statusCode).to.equal(200)
    } finally { await app.close() }
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines[0]).to.deep.equal({ earlier: true })
    const messages = lines.slice(1).map((line) => line.msg)
    expect(messages).to.include.members(['incoming request', 'in handler', 'request completed'])
    const handlerLine = lines.find((line) => line.msg === 'in handler')!
    expect(handlerLine.step).to.equal('handler')
    expect(handlerLine.reqId).to.be.a('string')
  })

  it('refuses file and stream together, and a file that is not a path, with ENC_ERR_SERVER_INVALID_OPTION', () => {
    const stream = new Writable({ write(_chunk, _encoding, done) { done() } })
    expect(() => createServer({ logger: { file: join(dir, 'x.log'), stream } }))
      .to.throw(/give one destination, `file` \(a path\) or `stream`, not both/).with.property('code', 'ENC_ERR_SERVER_INVALID_OPTION')
    expect(() => createServer({ logger: { file: 42 as never } }))
      .to.throw(/file must be the path of the log file/).with.property('code', 'ENC_ERR_SERVER_INVALID_OPTION')
  })

  it('a file in a directory that does not exist fails createServer() with ENC_ERR_SERVER_INVALID_OPTION naming the path and the OS error', () => {
    const file = join(dir, 'missing-dir', 'app.log')
    expect(() => createServer({ logger: { file } }))
      .to.throw(/the log file cannot be opened/).with.property('code', 'ENC_ERR_SERVER_INVALID_OPTION')
    try {
      createServer({ logger: { file } })
    } catch (error) {
      expect((error as Error).message).to.contain(JSON.stringify(file)).and.contain('ENOENT')
    }
  })

  // Linux only: /proc/self/fd lists this process's open descriptors.
  const linux = existsSync('/proc/self/fd')
  ;(linux ? it : it.skip)('closes the file when the server closes: 20 servers created and closed leave no descriptor open', async () => {
    const openFds = (): number => readdirSync('/proc/self/fd').length
    const file = join(dir, 'many.log')
    const before = openFds()
    for (let i = 0; i < 20; i++) {
      const app = createServer({ logger: { level: 'info', file } })
      app.log.info({ server: i }, 'up')
      await app.close()
    }
    expect(openFds() - before).to.be.at.most(0)
    expect(readFileSync(file, 'utf8').trim().split('\n')).to.have.length(20)
  })

  ;(linux ? it : it.skip)('a createServer() refused for another option does not leave the log file open', () => {
    const openFds = (): number => readdirSync('/proc/self/fd').length
    const before = openFds()
    for (let i = 0; i < 5; i++) {
      expect(() => createServer({ logger: { file: join(dir, 'refused.log') }, headersTimeout: 500, requestTimeout: 100 }))
        .to.throw().with.property('code', 'ENC_ERR_SERVER_INVALID_OPTION')
    }
    expect(openFds() - before).to.be.at.most(0)
  })

  ;(linux ? it : it.skip)('a createServer() refused by a later check (poisoning action) or by pino itself (unknown level) does not leave the log file open', async () => {
    const openFds = (): number => readdirSync('/proc/self/fd').length
    const before = openFds()
    for (let i = 0; i < 5; i++) {
      expect(() => createServer({ logger: { file: join(dir, 'refused.log') }, onProtoPoisoning: 'remvoe' as never }))
        .to.throw().with.property('code', 'ENC_ERR_SERVER_INVALID_OPTION')
      expect(() => createServer({ logger: { file: join(dir, 'refused.log'), level: 'verbose' } })).to.throw()
    }
    // pino's refusal closes the file asynchronously (SonicBoom): wait for it, a bounded number of ticks.
    for (let tick = 0; tick < 50 && openFds() > before; tick++) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(openFds() - before).to.be.at.most(0)
  })

  it('a line logged after close() is dropped, not thrown from the log call', async () => {
    const file = join(dir, 'after.log')
    const app = createServer({ logger: { level: 'info', file } })
    await app.close()
    expect(() => app.log.info('after close')).not.to.throw()
    expect(readFileSync(file, 'utf8')).to.equal('')
  })
})
