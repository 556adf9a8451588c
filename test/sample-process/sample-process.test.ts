// The sample as a user runs it: `node dist/sample/main.js` in its own process, on a free port,
// requested over a real socket, then stopped with SIGTERM (spec §4.1, §5).
import { expect } from 'chai'
import { spawn, type ChildProcess } from 'node:child_process'
import { freePort } from '../support/free-port'
import { join } from 'node:path'

const main = join(__dirname, '..', '..', 'sample', 'main.js')
// 30 s, not 10: the sample loads the whole dist, ~0.4 s of CPU, and on a loaded 2-core machine
// (load ~24 here) that took 6-13 s of wall time; 10 s failed 1 run of 1. What these tests prove
// is what the sample serves and how it stops, not how fast it boots.
const startLimitMs = 30_000
const exitLimitMs = 10_000

/** Resolves with the address the sample prints on its "listening" line; rejects on exit or after the limit. */
function waitForListening(child: ChildProcess, output: { text: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line within ${startLimitMs} ms; output:\n${output.text}`)), startLimitMs)
    const onData = (): void => {
      const match = /listening on (http:\/\/\S+)/.exec(output.text)
      if (match === null) return
      clearTimeout(timer)
      child.stdout?.removeListener('data', onData)
      resolve(match[1])
    }
    child.stdout?.on('data', onData)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`the sample exited (${code ?? signal}) before listening; output:\n${output.text}`))
    })
  })
}

/** Resolves with the exit code once the child has exited; rejects after the limit. */
function waitForExit(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sample did not exit within ${exitLimitMs} ms of SIGTERM`)), exitLimitMs)
    child.once('exit', (code) => { clearTimeout(timer); resolve(code) })
  })
}

describe('sample process: node dist/sample/main.js on a free port', function () {
  this.timeout(startLimitMs + exitLimitMs + 5_000)
  let child: ChildProcess
  let port: number
  let address: string
  const output = { text: '' }

  before(async () => {
    port = await freePort()
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1' }
    delete env.API_KEYS
    delete env.SAMPLE_LIFT_GRANDCHILD
    child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout?.on('data', (chunk: Buffer) => { output.text += chunk.toString() })
    child.stderr?.on('data', (chunk: Buffer) => { output.text += chunk.toString() })
    address = await waitForListening(child, output)
  })

  after(async () => {
    if (child === undefined || child.exitCode !== null) return
    const exited = waitForExit(child)
    child.kill('SIGTERM')
    expect(await exited, 'exit code after SIGTERM').to.equal(0)
    expect(output.text).to.contain('SIGTERM received, closing')
  })

  it('prints the address it listens on: the PORT and HOST it was given', () => {
    expect(address).to.equal(`http://127.0.0.1:${port}`)
    expect(output.text).to.contain('demo key "abc123"')
  })

  it('§4.1 GET /one with Authorization: Bearer abc123 answers {"answer":42}', async () => {
    const res = await fetch(`${address}/one`, { headers: { authorization: 'Bearer abc123' } })
    expect(res.status).to.equal(200)
    expect(await res.text()).to.equal('{"answer":42}')
  })

  it('§5.4 GET /one without a token answers 401 with WWW-Authenticate: Bearer', async () => {
    const res = await fetch(`${address}/one`)
    expect(res.status).to.equal(401)
    expect(res.headers.get('www-authenticate')).to.equal('Bearer')
    expect(await res.json()).to.include({ statusCode: 401, error: 'Unauthorized' })
  })

  it('§4.1 GET /two answers {"answer":42,"foo":"foo"}', async () => {
    const res = await fetch(`${address}/two`)
    expect(res.status).to.equal(200)
    expect(await res.text()).to.equal('{"answer":42,"foo":"foo"}')
  })

  it('§4.1 GET /three answers {"answer":42,"foo":"foo","bar":"bar"}', async () => {
    const res = await fetch(`${address}/three`)
    expect(res.status).to.equal(200)
    expect(await res.text()).to.equal('{"answer":42,"foo":"foo","bar":"bar"}')
  })

  it('a second copy on the same PORT (npm start twice) exits 1, printing the port, the host and the fix (ENC_ERR_SERVER_LISTEN_FAILED)', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1' }
    const second = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let text = ''
    second.stdout?.on('data', (chunk: Buffer) => { text += chunk.toString() })
    second.stderr?.on('data', (chunk: Buffer) => { text += chunk.toString() })
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => { second.kill('SIGKILL'); reject(new Error(`the second copy did not exit within ${startLimitMs} ms:\n${text}`)) }, startLimitMs)
      second.once('exit', (c) => { clearTimeout(timer); resolve(c) })
    })
    expect(code, text).to.equal(1)
    expect(text).to.include(`cannot listen on port ${port} on host 127.0.0.1`)
    expect(text).to.include("code: 'EADDRINUSE'")
    expect(text).to.include(`PORT=${port + 1}, or 0 for a free one`)
  })

  it('stops on SIGTERM with exit code 0', async () => {
    const exited = waitForExit(child)
    child.kill('SIGTERM')
    expect(await exited).to.equal(0)
    expect(output.text).to.contain('SIGTERM received, closing')
    await fetch(`${address}/two`).then(
      () => expect.fail('the port still answers after the sample exited'),
      (error: Error) => expect(error).to.be.instanceOf(Error),
    )
  })
})
