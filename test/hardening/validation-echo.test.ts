// A 400 message repeats what the client sent only in bounded form: a property name or a data path
// made of client keys longer than 120 characters is clipped to its first 100 and its length, in
// the answer and in the error log line's message (README "Where Enclave deliberately differs from Fastify 3.27.4").
import { Writable } from 'node:stream'
import { expect } from 'chai'
import { expectErrorShape, server } from './helpers'

function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = []
  return { lines, stream: new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done() } }) }
}

describe('hardening: client text echoed in validation messages', () => {
  const longKey = 'X'.repeat(300_000)
  const post = (app: ReturnType<typeof server>, url: string, key: string) =>
    app.inject({ method: 'POST', url, payload: JSON.stringify({ [key]: 'x' }), headers: { 'content-type': 'application/json' } })

  it('a 300 KB property name failing propertyNames is clipped in the 400 message, the answer stays small', async () => {
    const app = server()
    app.post('/p', { schema: { body: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } } } }, async () => ({}))
    const res = await post(app, '/p', longKey)
    expect(res.statusCode).to.equal(400)
    expect(res.body.length).to.be.below(1000)
    const { message } = expectErrorShape(res.body, 400)
    expect(message).to.equal(`body should match pattern "^[a-z]+$", body property name '${'X'.repeat(100)}... (300000 characters)' is invalid`)
    await app.close()
  })

  it('a data path made of a 300 KB key is clipped; short names and paths are repeated whole, as Fastify 3 does', async () => {
    const app = server()
    app.post('/a', { schema: { body: { type: 'object', additionalProperties: { type: 'integer' } } } }, async () => ({}))
    app.post('/p', { schema: { body: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } } } }, async () => ({}))
    const long = await post(app, '/a', longKey)
    expect(expectErrorShape(long.body, 400).message).to.equal(`body/${'X'.repeat(99)}... (300001 characters) should be integer`)
    expect(expectErrorShape((await post(app, '/a', 'Qty')).body, 400).message).to.equal('body/Qty should be integer')
    expect(expectErrorShape((await post(app, '/p', 'Bad-Name')).body, 400).message).to.equal('body should match pattern "^[a-z]+$", body property name \'Bad-Name\' is invalid')
    await app.close()
  })

  it('the error log line of such a 400 stays small: message, stack, msg and the logged validation entries are clipped', async () => {
    const { lines, stream } = capture()
    const app = server({ logger: { level: 'info', stream } })
    app.post('/p', { schema: { body: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } } } }, async () => ({}))
    app.post('/a', { schema: { body: { type: 'object', additionalProperties: { type: 'integer' } } } }, async () => ({}))
    for (const url of ['/p', '/a']) {
      lines.length = 0
      expect((await post(app, url, longKey)).statusCode).to.equal(400)
      const errorLine = lines.find((l) => l.includes('"err"')) as string
      expect(errorLine.length, url).to.be.below(3000)
      const line = JSON.parse(errorLine) as { msg: string; err: { message: string; stack: string; validation: Array<Record<string, unknown>> } }
      for (const text of [line.msg, line.err.message, line.err.stack]) expect(text.length).to.be.below(400)
      expect(line.err.validation.length, url).to.be.above(0)
    }
    await app.close()
  })

  it('a long property name holding $& or $\' is clipped as written: replacement patterns in it are not expanded (no amplified 400)', async () => {
    const app = server()
    app.post('/p', { schema: { body: { type: 'object', propertyNames: { maxLength: 5 } } } }, async () => ({}))
    const key = '$&'.repeat(25) + "$'".repeat(25) + 'X'.repeat(100_000)
    const res = await post(app, '/p', key)
    expect(res.statusCode).to.equal(400)
    expect(res.body.length).to.be.below(1000)
    expect(expectErrorShape(res.body, 400).message).to.equal(`body should NOT be longer than 5 characters, body property name '${key.slice(0, 100)}... (${key.length} characters)' is invalid`)
    await app.close()
  })

  it('a clipped property name never ends in half a surrogate pair: the cut steps back before an emoji it would split', async () => {
    const app = server()
    app.post('/p', { schema: { body: { type: 'object', propertyNames: { maxLength: 5 } } } }, async () => ({}))
    const key = 'a'.repeat(99) + '\u{1F600}' + 'b'.repeat(200)
    const res = await post(app, '/p', key)
    expect(res.body).not.to.match(/\\ud83d/i)
    expect(expectErrorShape(res.body, 400).message).to.include(`'${'a'.repeat(99)}... (${key.length} characters)'`)
    await app.close()
  })

  it('the err log serializer takes what pino\'s takes: { err: null }, a number, a frozen non-Error object are logged, never thrown from the log call', async () => {
    const { lines, stream } = capture()
    const app = server({ logger: { level: 'info', stream } })
    const frozen = Object.freeze({ validation: Object.freeze([Object.freeze({ dataPath: 'y'.repeat(200) })]) })
    app.get('/', async (request) => {
      for (const err of [null, 42, frozen]) request.log.error({ err }, 'odd err value')
      return 'ok'
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(200)
    expect(lines.filter((l) => l.includes('odd err value'))).to.have.length(3)
    await app.close()
  })

  it('error.validation stays ajv\'s own: an error handler still reads the whole key', async () => {
    const app = server()
    let seen: unknown
    app.setErrorHandler((error, _request, reply) => { seen = (error as { validation?: unknown }).validation; return reply.send(error) })
    app.post('/p', { schema: { body: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } } } }, async () => ({}))
    expect((await post(app, '/p', longKey)).statusCode).to.equal(400)
    expect(JSON.stringify(seen)).to.include(longKey)
    await app.close()
  })
})
