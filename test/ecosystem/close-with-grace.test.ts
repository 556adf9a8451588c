import { expect } from 'chai'
import type { ChildProcess } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { startListening, type ListeningChild } from '../support/listening-child'
import { within } from '../support/raw-http'

// close-with-grace 2 (its README): `closeWithGrace({ delay }, async ({ signal, err }) => { await app.close() })`
// turns SIGTERM/SIGINT, an uncaught exception or an unhandled rejection into one close() and an
// exit (0 after a signal, 1 after an error or when close() outlives `delay`). The app runs in a child
// process (fixtures/close-with-grace-app.ts), an Enclave server, an Enclave app from modules, or
// Fastify 3.27.4 for reference; every outcome is compared with Fastify 3's.
const fixture = join(__dirname, 'fixtures', 'close-with-grace-app.js')

function get(address: string, path: string): Promise<string> {
  return new Promise((resolve) => {
    const req = httpRequest(`${address}${path}`, { agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve(`${res.statusCode} ${body}`))
    })
    req.on('error', (error) => resolve(error.message))
    req.end()
  })
}

/** The fixture's lines after LISTENING, in order, without the address. */
function linesAfterListening(app: ListeningChild): string[] {
  return app.output().split('\n').filter((line) => line !== '' && !line.startsWith('LISTENING'))
}

describe('close-with-grace with Enclave', () => {
  const started: ChildProcess[] = []
  afterEach(() => { for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL') })

  /** SIGTERM while GET /slow is in flight: the request's answer, what the app printed, its exit code. */
  async function sigtermDuringRequest(mode: string, env: Record<string, string>): Promise<{ answer: string; lines: string[]; code: number | null; after: string }> {
    const app = await startListening(fixture, { MODE: mode, ...env }, started)
    const answer = get(app.address, '/slow')
    // The request reaches its handler before the signal: wait for the server to hold it.
    await new Promise((resolve) => setTimeout(resolve, 100))
    app.child.kill('SIGTERM')
    const code = await within(app.exited, 20_000, `${mode} exiting`)
    return { answer: await within(answer, 5_000, `${mode} /slow`), lines: linesAfterListening(app), code, after: await get(app.address, '/slow') }
  }

  for (const mode of ['scope', 'module']) {
    it(`SIGTERM with a request in flight (${mode}): close() answers it, runs ${mode === 'module' ? 'onModuleDestroy and onApplicationShutdown' : 'onClose hooks'}, refuses new connections and the process exits 0, as Fastify 3`, async function () {
      this.timeout(60_000)
      const ours = await sigtermDuringRequest(mode, { HOLD: '400', DELAY: '10000' })
      const theirs = await sigtermDuringRequest('fastify3', { HOLD: '400', DELAY: '10000' })
      expect(ours.answer).to.equal('200 done')
      expect(ours.code).to.equal(0)
      expect(ours.after).to.match(/ECONNREFUSED/)
      // close() does not pass the signal on to onApplicationShutdown: close-with-grace calls it, not closeOnSignals.
      expect(ours.lines).to.deep.equal(['CLOSING SIGTERM', ...mode === 'module' ? ['DESTROYED', 'SHUTDOWN undefined'] : ['ONCLOSE']])
      expect([ours.answer, ours.code, ours.after.includes('ECONNREFUSED')]).to.deep.equal([theirs.answer, theirs.code, true])
      if (mode === 'scope') expect(ours.lines).to.deep.equal(theirs.lines)
    })
  }

  it('close() outliving close-with-grace\'s delay: it logs "killed by timeout" and exits 1, the in-flight request cut, as Fastify 3', async function () {
    this.timeout(60_000)
    const ours = await sigtermDuringRequest('scope', { HOLD: '5000', DELAY: '300' })
    const theirs = await sigtermDuringRequest('fastify3', { HOLD: '5000', DELAY: '300' })
    expect(ours.code).to.equal(1)
    expect(ours.lines).to.deep.equal(['CLOSING SIGTERM', 'GRACE killed by timeout (300ms)'])
    expect(ours.answer).to.equal('socket hang up')
    expect([ours.code, ours.lines, ours.answer]).to.deep.equal([theirs.code, theirs.lines, theirs.answer])
  })

  it('an uncaught exception outside any request: one close() with the error, the shutdown hooks, exit 1, as Fastify 3', async function () {
    this.timeout(60_000)
    const outcome = async (mode: string): Promise<unknown> => {
      const app = await startListening(fixture, { MODE: mode }, started)
      const answer = await within(get(app.address, '/crash'), 5_000, `${mode} /crash`)
      const code = await within(app.exited, 20_000, `${mode} exiting`)
      return { answer, code, lines: linesAfterListening(app) }
    }
    const ours = await outcome('scope')
    expect(ours).to.deep.equal({ answer: '200 scheduled', code: 1, lines: ['CLOSING background job failed', 'ONCLOSE'] })
    expect(await outcome('module')).to.deep.equal({ answer: '200 scheduled', code: 1, lines: ['CLOSING background job failed', 'DESTROYED', 'SHUTDOWN undefined'] })
    expect(await outcome('fastify3')).to.deep.equal(ours)
  })
})
