import { expect } from 'chai'
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import request from 'supertest'

const main = join(__dirname, '..', '..', 'sample', 'main.js')

// The sample loads the whole dist, ~0.4 s of CPU: on a loaded 2-core machine (load ~24 here) that
// took 6-13 s of wall time, past mocha's default 10 s for the whole test. The boot gets 30 s of its
// own (the child is killed after it), each test 45 s: what is proven is what the sample does.
const startLimitMs = 30_000

/** Starts `node dist/sample/main.js` and resolves with the address it prints (killed and rejected after startLimitMs). */
function start(env: Record<string, string>): Promise<{ child: ChildProcess; address: string; stderr: () => string }> {
  const child = spawn(process.execPath, [main], { env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stderr!.on('data', (chunk) => { err += chunk })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`the sample printed no address within ${startLimitMs} ms: ${out}${err}`)) }, startLimitMs)
    child.stdout!.on('data', (chunk) => {
      out += chunk
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match !== null) { clearTimeout(timer); resolve({ child, address: match[1], stderr: () => err }) }
    })
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`sample exited with ${code}: ${err}`)) })
  })
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}

describe('sample: main.js (npm start)', function () {
  this.timeout(45_000)
  it('serves on HOST:PORT, warns about the demo key, and closes on SIGTERM', async () => {
    const { child, address, stderr } = await start({ HOST: '127.0.0.1', API_KEYS: '' })
    try {
      expect(address).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(stderr()).to.contain('demo key "abc123"')
      await request(address).get('/one').set('authorization', 'Bearer abc123').expect(200, { answer: 42 })
      await request(address).get('/two').expect(200, { answer: 42, foo: 'foo' })
    } finally {
      const done = exited(child)
      child.kill('SIGTERM')
      expect(await done).to.equal(0)
    }
  })

  it('takes API_KEYS and SAMPLE_LIFT_GRANDCHILD from the environment', async () => {
    const { child, address, stderr } = await start({ API_KEYS: 'one, two', SAMPLE_LIFT_GRANDCHILD: '1' })
    try {
      expect(stderr()).to.not.contain('demo key')
      await request(address).get('/one').set('authorization', 'Bearer abc123').expect(401)
      await request(address).get('/one').set('authorization', 'Bearer two').expect(200)
      await request(address).get('/two').expect(200, { answer: 42, foo: 'foo', bar: 'bar' })
    } finally {
      const done = exited(child)
      child.kill('SIGINT')
      expect(await done).to.equal(0)
    }
  })
})
