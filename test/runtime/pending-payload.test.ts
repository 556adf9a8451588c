// `return { user: fetchUser() }` (an await forgotten): JSON.stringify and fast-json-stringify write
// the promise as {}, so Fastify 3 answers 200 {"user":{}}. Enclave answers 500
// ENC_ERR_REPLY_PENDING_PAYLOAD and logs where the promise is (README differences).
import { expect } from 'chai'
import { createServer } from '../../src'

interface Line { level: number; msg: string; err?: { code?: string; message?: string } }

async function served(declare: (app: ReturnType<typeof createServer>) => void, url: string): Promise<{ status: number; body: string; lines: Line[] }> {
  const lines: Line[] = []
  const app = createServer({ logger: { level: 'error', stream: { write: (line: string) => { lines.push(JSON.parse(line) as Line) } } } })
  declare(app)
  try {
    const res = await app.inject({ url })
    return { status: res.statusCode, body: res.body, lines }
  } finally { await app.close() }
}

const fetchUser = async (): Promise<{ name: string }> => ({ name: 'ada' })

describe('dx: a promise inside a returned payload answers 500 ENC_ERR_REPLY_PENDING_PAYLOAD naming where, not {} with a 200', () => {
  it('a top-level property (no response schema): 500, the log line names `user` and the fix', async () => {
    const { status, body, lines } = await served((app) => { app.get('/me', async () => ({ user: fetchUser() })) }, '/me')
    expect(status).to.equal(500)
    expect(JSON.parse(body)).to.include({ statusCode: 500, error: 'Internal Server Error' })
    const logged = lines.find((l) => l.err?.code === 'ENC_ERR_REPLY_PENDING_PAYLOAD')
    expect(logged?.err?.message).to.include('GET /me').and.include('a promise at user').and.include('Await it')
  })

  it('deep in an array, under a response schema (fast-json-stringify writes {} too): the path names the element', async () => {
    const schema = { response: { 200: { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { owner: { type: 'object', properties: { name: { type: 'string' } } } } } } } } } }
    const { status, lines } = await served((app) => {
      app.get('/items', { schema }, async () => ({ items: [{ owner: { name: 'a' } }, { owner: { name: 'b' } }, { owner: fetchUser() }] }))
    }, '/items')
    expect(status).to.equal(500)
    expect(lines.find((l) => l.err?.code === 'ENC_ERR_REPLY_PENDING_PAYLOAD')?.err?.message).to.include('a promise at items[2].owner')
  })

  it('a legitimate empty object, a Date and a class with toJSON are served as before', async () => {
    class Money { constructor(readonly cents: number) {} toJSON() { return `${this.cents / 100} EUR` } }
    const { status, body, lines } = await served((app) => { app.get('/ok', async () => ({ meta: {}, at: new Date(0), price: new Money(250), list: [{}] })) }, '/ok')
    expect(status).to.equal(200)
    expect(JSON.parse(body)).to.deep.equal({ meta: {}, at: '1970-01-01T00:00:00.000Z', price: '2.5 EUR', list: [{}] })
    expect(lines).to.deep.equal([])
  })

  it('a promise under a key the response schema does not write is not the client\'s {}: served as before', async () => {
    const schema = { response: { 200: { type: 'object', properties: { id: { type: 'integer' }, meta: { type: 'object' } } } } }
    const { status, body } = await served((app) => { app.get('/s', { schema }, async () => ({ id: 1, meta: {}, refresh: fetchUser() })) }, '/s')
    expect(status).to.equal(200)
    expect(JSON.parse(body)).to.deep.equal({ id: 1, meta: {} })
  })

  it('a thenable with toJSON() is written by its toJSON(), not as {}: served as before', async () => {
    const lazy = { then: (resolve: (v: number) => void) => resolve(1), toJSON: () => ({ a: 1 }) }
    const { status, body } = await served((app) => { app.get('/t', async () => ({ x: lazy, y: {} })) }, '/t')
    expect(status).to.equal(200)
    expect(JSON.parse(body)).to.deep.equal({ x: { a: 1 }, y: {} })
  })

  it('the walk is bounded: a promise after 10,000 values is not looked for (served as JSON writes it), a huge typed array is not entered', async () => {
    const big = Array.from({ length: 20_000 }, (_, i) => i)
    const late = await served((app) => { app.get('/late', async () => ({ big, empty: {}, user: fetchUser() })) }, '/late')
    expect(late.status).to.equal(200)
    const bytes = await served((app) => { app.get('/bytes', async () => ({ empty: {}, bytes: new Uint8Array(10), user: fetchUser() })) }, '/bytes')
    expect(bytes.status).to.equal(500)
  })
})
