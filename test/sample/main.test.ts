import { expect } from 'chai'
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import request from 'supertest'

const main = join(__dirname, '..', '..', 'sample', 'main.js')

/** Starts `node dist/sample/main.js` and resolves with the address it prints. */
function start(env: Record<string, string>): Promise<{ child: ChildProcess; address: string; stderr: () => string }> {
  const child = spawn(process.execPath, [main], { env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stderr!.on('data', (chunk) => { err += chunk })
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match !== null) resolve({ child, address: match[1], stderr: () => err })
    })
    child.once('exit', (code) => reject(new Error(`sample exited with ${code}: ${err}`)))
  })
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}

describe('sample: main.js (npm start)', () => {
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
