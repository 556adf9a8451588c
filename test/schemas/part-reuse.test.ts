// One schema object given by several routes (`const user = {...}` as the body of five routes):
// eager boot copies, checks and walks it once (schemas/part-reuse.ts), and every route behaves,
// warns and fails as if it had its own copy. The user's object is never mutated.
import { expect } from 'chai'
import { bootError, bootWarnings, build, server } from '../support/servers'

const user = () => ({ type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 20 }, age: { type: 'integer', default: 1 } } })

describe('schema parts shared by several routes (eager boot, part-reuse.ts)', () => {
  it('every route sharing a body and a response object validates, defaults and serializes with it; the object is left as given', async () => {
    const body = user()
    const reply = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } } }
    const before = JSON.stringify([body, reply])
    const app = await build((root) => {
      for (const url of ['/a', '/b', '/c']) root.post(url, { schema: { body, response: { 200: reply } } }, async (req) => ({ ...(req.body as object), secret: 'x' }))
    })
    for (const url of ['/a', '/b', '/c']) {
      const ok = await app.inject({ method: 'POST', url, payload: { name: 'Ada' } })
      expect(ok.statusCode).to.equal(200)
      expect(ok.json()).to.deep.equal({ name: 'Ada', age: 1 })
      const bad = await app.inject({ method: 'POST', url, payload: { age: 3 } })
      expect(bad.statusCode).to.equal(400)
      expect((bad.json() as { message: string }).message).to.match(/name/)
    }
    expect(JSON.stringify([body, reply])).to.equal(before)
    const schemas = app.inspect().routes.filter((r) => r.method === 'POST').map((r) => JSON.stringify(r.schema))
    expect(schemas).to.have.length(3)
    expect(new Set(schemas).size).to.equal(1)
  })

  it('a shared object with a misspelt keyword fails boot with ENC_ERR_SCH_UNKNOWN_KEYWORD naming the first route that gives it, not a route before it that gave another', async () => {
    const typo = { type: 'object', properties: { name: { type: 'string', maxLenght: 5 } } }
    const app = server()
    app.post('/fine', { schema: { body: user() } }, async () => ({}))
    app.post('/first', { schema: { body: typo } }, async () => ({}))
    app.post('/second', { schema: { body: typo } }, async () => ({}))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
    expect(error.message).to.include('POST /first').and.not.include('/second')
  })

  it('a check that failed is not remembered as passed: the route after the one that skipped it (custom validatorCompiler) gets the error naming it', async () => {
    const typo = { type: 'object', properties: { name: { type: 'string', maxLenght: 5 } } }
    const app = server()
    // A custom compiler: no keyword check for this route (README), and its copy is its own.
    app.post('/custom', { schema: { body: typo }, validatorCompiler: () => () => true }, async () => ({}))
    app.post('/second', { schema: { body: typo } }, async () => ({}))
    app.post('/third', { schema: { body: typo } }, async () => ({}))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
    expect(error.message).to.include('POST /second').and.not.include('/third')
  })

  it('each route sharing an object that warns gets its own boot warning naming it and the place', async () => {
    const tags = { type: 'object', properties: { tags: { type: 'array', uniqueItems: true }, slug: { type: 'string', pattern: '^([a-z]+)*$' } } }
    const warnings = await bootWarnings((root) => {
      root.post('/a', { schema: { body: tags } }, async () => ({}))
      root.put('/b', { schema: { body: tags, querystring: tags } }, async () => ({}))
      root.patch('/c', { schema: { body: tags } }, async () => ({}))
    })
    expect(warnings.map((w) => [w.code, w.route, w.at])).to.deep.equal([
      ['ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED', 'POST /a', ['body /properties/tags']],
      ['ENC_WARN_SCHEMA_PATTERN_REDOS', 'POST /a', ['body /properties/slug/pattern']],
      ['ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED', 'PUT /b', ['body /properties/tags', 'querystring /properties/tags']],
      ['ENC_WARN_SCHEMA_PATTERN_REDOS', 'PUT /b', ['body /properties/slug/pattern', 'querystring /properties/slug/pattern']],
      ['ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED', 'PATCH /c', ['body /properties/tags']],
      ['ENC_WARN_SCHEMA_PATTERN_REDOS', 'PATCH /c', ['body /properties/slug/pattern']],
    ])
  })

  it('a headers object shared by routes has its names lower-cased for each, once', async () => {
    const headers = { type: 'object', required: ['X-Token'], properties: { 'X-Token': { type: 'string', minLength: 3 } } }
    const app = await build((root) => {
      root.get('/a', { schema: { headers } }, async () => 'a')
      root.get('/b', { schema: { headers } }, async () => 'b')
    })
    for (const url of ['/a', '/b']) {
      expect((await app.inject({ url, headers: { 'x-token': 'abcd' } })).statusCode).to.equal(200)
      expect((await app.inject({ url, headers: { 'x-token': 'ab' } })).statusCode).to.equal(400)
    }
    expect(headers.required).to.deep.equal(['X-Token'])
  })

  it('in shorthand form too (properties at the top level), and as one route\'s body and another\'s response', async () => {
    const shorthand = { name: { type: 'string' }, count: { type: 'integer' } }
    const app = await build((root) => {
      root.post('/in', { schema: { body: shorthand } }, async (req) => req.body)
      root.get('/out', { schema: { response: { 200: shorthand } } }, async () => ({ name: 'n', count: '7', extra: true }))
    })
    expect((await app.inject({ method: 'POST', url: '/in', payload: { name: 'x', count: 'nope' } })).statusCode).to.equal(400)
    expect((await app.inject({ url: '/out' })).json()).to.deep.equal({ name: 'n', count: 7 })
    expect(shorthand).to.deep.equal({ name: { type: 'string' }, count: { type: 'integer' } })
  })
})
