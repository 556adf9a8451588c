// The shared poller's own promise: bounded in count and in wall time, whatever the check does
// (including a check that never settles).
import { expect } from 'chai'
import { poll, until } from './until'

describe('test support: poll() and until() are bounded', () => {
  it('a check that holds at once is called once; one that holds later ends the wait then', async () => {
    let calls = 0
    expect(await poll(() => { calls++; return true })).to.equal(true)
    expect(calls).to.equal(1)
    let n = 0
    expect(await poll(() => ++n === 3, { ms: 1_000, every: 1 })).to.equal(true)
    expect(n).to.equal(3)
  })

  it('a check that never holds is called at most ms / every + 1 times, then poll() resolves false', async () => {
    let calls = 0
    expect(await poll(() => { calls++; return false }, { ms: 50, every: 10 })).to.equal(false)
    expect(calls).to.be.at.most(6)
  })

  it('a slow async check does not stretch the wait: the time bound stops it long before the count bound', async () => {
    let calls = 0
    const slow = async (): Promise<boolean> => { calls++; await new Promise((resolve) => setTimeout(resolve, 40)); return false }
    const started = Date.now()
    expect(await poll(slow, { ms: 100, every: 1 })).to.equal(false)
    // 100 polls were allowed by count; the wall-time bound stopped it after a few, and on time
    // (generously: a loaded machine may be late by timers, not by a whole slow check per poll).
    expect(calls).to.be.below(10)
    expect(Date.now() - started).to.be.below(100 + 1_000)
  })

  it('a check that never settles counts as not held at the deadline: poll() resolves false on time and starts no check after it', async () => {
    let calls = 0
    const never = (): Promise<boolean> => { calls++; return new Promise<boolean>(() => {}) }
    const started = Date.now()
    expect(await poll(never, { ms: 100, every: 10 })).to.equal(false)
    expect(Date.now() - started).to.be.below(100 + 1_000)
    // The only check was still pending at the deadline; no "last look" ran after it.
    expect(calls).to.equal(1)
  })

  it('until() with a never-settling check throws on time instead of hanging', async () => {
    const started = Date.now()
    const error = await until(() => new Promise<boolean>(() => {}), 'a check that never settles', { ms: 50 }).then(() => null, (e: Error) => e)
    expect(error?.message).to.equal('not within 50 ms: a check that never settles')
    expect(Date.now() - started).to.be.below(50 + 1_000)
  })

  it('until() throws naming what it waited for (a function is read when it runs out), and resolves when the check holds', async () => {
    let output = 'nothing yet'
    const error = await until(() => false, () => `the worker; output: ${output}`, { ms: 30 }).then(() => null, (e: Error) => e)
    output = 'changed'
    expect(error?.message).to.equal('not within 30 ms: the worker; output: nothing yet')
    await until(() => true, 'at once')
  })
})
