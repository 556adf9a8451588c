// Error-path amplification: a thrown message the client controls (new Error(body), 5 MB) is
// written at most LOG_TEXT_LIMIT characters and its length per place in a log line (the message,
// err.message, and inside err.stack, whose frames stay), where Fastify 3 (and 5) write it whole
// three times: a 15 MB line (Enclave's is 26 KB).
// The answer is not changed: a 4xx still carries its message, as in Fastify 3 (README, differences).
import { expect } from 'chai'
import { recordingLogger, server } from '../support/servers'
import { LOG_TEXT_LIMIT } from '../../src/runtime/errors/log-text'

const HUGE = 5_000_000

function jsonLines(): { stream: { write(line: string): void }; lines: Array<Record<string, unknown> & { size: number }> } {
  const lines: Array<Record<string, unknown> & { size: number }> = []
  return { lines, stream: { write: (line: string) => { lines.push({ ...JSON.parse(line) as Record<string, unknown>, size: line.length }) } } }
}

describe('hardening: error log lines are bounded (error-path amplification)', () => {
  it('a 5 MB thrown message answers the generic 500 and its error line is under 40 KB, with the length and the stack frames', async () => {
    const sink = jsonLines()
    const app = server({ logger: { stream: sink.stream } })
    app.get('/boom', async () => { throw new Error('x'.repeat(HUGE)) })
    const res = await app.inject({ url: '/boom' })
    expect(res.statusCode).to.equal(500)
    expect(res.payload.length).to.be.below(200)
    const line = sink.lines.find((l) => l.level === 50) as Record<string, unknown> & { size: number; err: { message: string; stack: string } }
    expect(line, JSON.stringify(sink.lines.map((l) => l.msg))).to.not.equal(undefined)
    expect(line.size).to.be.below(40_000)
    expect(line.msg).to.equal(`${'x'.repeat(LOG_TEXT_LIMIT)}... (${HUGE} characters)`)
    expect(line.err.message).to.equal(line.msg)
    expect(line.err.stack.startsWith(`Error: ${'x'.repeat(LOG_TEXT_LIMIT)}... (${HUGE} characters)\n    at `)).to.equal(true)
  })

  it('a 5 MB message on a 4xx is clipped in its info line but sent whole, as Fastify 3 sends it', async () => {
    const sink = jsonLines()
    const app = server({ logger: { stream: sink.stream } })
    app.get('/bad', async () => { throw Object.assign(new Error('y'.repeat(HUGE)), { statusCode: 400 }) })
    const res = await app.inject({ url: '/bad' })
    expect(res.statusCode).to.equal(400)
    expect((JSON.parse(res.payload) as { message: string }).message.length).to.equal(HUGE)
    const line = sink.lines.find((l) => l.err !== undefined) as Record<string, unknown> & { size: number }
    expect(line.level).to.equal(30)
    expect(line.size).to.be.below(40_000)
    expect(String(line.msg).endsWith(`... (${HUGE} characters)`)).to.equal(true)
  })

  it('with a logger the user made, the line\'s message is clipped too (its err is the user\'s to serialize)', async () => {
    const log = recordingLogger()
    const app = server({ logger: log })
    const thrown = new Error('z'.repeat(HUGE))
    app.get('/boom', async () => { throw thrown })
    expect((await app.inject({ url: '/boom' })).statusCode).to.equal(500)
    const entry = log.entries.find((e) => e.level === 'error')
    expect(entry?.msg).to.equal(`${'z'.repeat(LOG_TEXT_LIMIT)}... (${HUGE} characters)`)
    expect((entry?.obj.err as Error).message.length, 'the error itself is not changed').to.equal(HUGE)
  })

  it('a message of exactly LOG_TEXT_LIMIT characters, and a long cause chain, are logged as they are up to the limit', async () => {
    const sink = jsonLines()
    const app = server({ logger: { stream: sink.stream } })
    app.get('/edge', async () => { throw new Error('e'.repeat(LOG_TEXT_LIMIT)) })
    app.get('/cause', async () => { throw new Error('outer', { cause: new Error('c'.repeat(HUGE)) }) })
    await app.inject({ url: '/edge' })
    await app.inject({ url: '/cause' })
    const [edge, cause] = sink.lines.filter((l) => l.level === 50) as Array<Record<string, unknown> & { size: number; err: { message: string; stack: string } }>
    expect(edge.msg).to.equal('e'.repeat(LOG_TEXT_LIMIT))
    expect(edge.err.message).to.equal('e'.repeat(LOG_TEXT_LIMIT))
    expect(cause.msg).to.equal('outer')
    expect(cause.size).to.be.below(40_000)
    expect(cause.err.stack.startsWith('Error: outer\n    at ')).to.equal(true)
  })
})
