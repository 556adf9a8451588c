// Boot warnings (docs/errors.md, "Boot warnings"): a request schema that a hostile client can turn into
// CPU is logged at warn once per route at boot, with its code; fixing the schema silences it.
import { expect } from 'chai'
import { bootWarnings, recordingLogger, server } from '../support/servers'

const code = 'ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED'

describe('boot warnings: uniqueItems without maxItems', () => {
  it('an untyped uniqueItems array in a body without maxItems is one warn line at boot naming the route, the code and every place', async () => {
    const warnings = await bootWarnings((app) => {
      app.post('/tags', { schema: { body: { type: 'object', properties: { tags: { type: 'array', uniqueItems: true }, ids: { type: 'array', uniqueItems: true, items: { type: 'object' } } } } } }, async () => ({}))
    })
    expect(warnings).to.have.length(1)
    expect(warnings[0]).to.include({ code, route: 'POST /tags', scope: 'root' })
    expect(warnings[0].at).to.deep.equal(['body /properties/tags', 'body /properties/ids'])
    expect(warnings[0].msg).to.match(/Add maxItems/)
  })

  it('maxItems, items typed as a string or number, or a tuple closed by additionalItems: false silence it', async () => {
    const warnings = await bootWarnings((app) => {
      app.post('/a', { schema: { body: { type: 'array', uniqueItems: true, maxItems: 100 } } }, async () => ({}))
      app.post('/b', { schema: { body: { type: 'array', uniqueItems: true, items: { type: 'string' } } } }, async () => ({}))
      app.post('/c', { schema: { body: { type: 'array', uniqueItems: true, items: { type: ['number', 'null'] } } } }, async () => ({}))
      app.post('/d', { schema: { body: { type: 'array', uniqueItems: true, items: [{ type: 'object' }], additionalItems: false } } }, async () => ({}))
      app.get('/e', { schema: { querystring: { type: 'object', properties: { ids: { type: 'array', uniqueItems: true, items: { type: 'integer' } } } } } }, async () => ({}))
    })
    expect(warnings).to.deep.equal([])
  })

  it('with the validator option allErrors: true, maxItems and a closed tuple do not silence it (ajv compares the pairs even past maxItems); typed items still do', async () => {
    const warnings = await bootWarnings((app) => {
      app.post('/a', { schema: { body: { type: 'array', uniqueItems: true, maxItems: 100 } } }, async () => ({}))
      app.post('/b', { schema: { body: { type: 'array', uniqueItems: true, items: { type: 'string' } } } }, async () => ({}))
      app.post('/d', { schema: { body: { type: 'array', uniqueItems: true, items: [{ type: 'object' }], additionalItems: false } } }, async () => ({}))
    }, { validator: { customOptions: { allErrors: true } } })
    expect(warnings.map((w) => w.route)).to.deep.equal(['POST /a', 'POST /d'])
    expect(warnings[0].msg).to.match(/allErrors/)
  })

  it('items that are objects, arrays or a type list holding one of them still warn, in any request part', async () => {
    const warnings = await bootWarnings((app) => {
      app.get('/q', { schema: { querystring: { type: 'object', properties: { ids: { type: 'array', uniqueItems: true, items: { type: ['string', 'array'] } } } } } }, async () => ({}))
      app.put('/p', { schema: { body: { type: 'array', uniqueItems: true, items: { type: 'array' } } } }, async () => ({}))
    })
    expect(warnings.map((w) => w.route)).to.deep.equal(['GET /q', 'PUT /p'])
  })

  it('a shared schema reached by $ref from a request schema is checked where it is used', async () => {
    const warnings = await bootWarnings((app) => {
      app.addSchema({ $id: 'Tags', type: 'array', uniqueItems: true })
      app.post('/x', { schema: { body: { type: 'object', properties: { tags: { $ref: 'Tags#' } } } } }, async () => ({}))
    })
    expect(warnings).to.have.length(1)
    expect(warnings[0].at).to.deep.equal(['body Tags#'])
  })

  it('routes reaching one shared schema (walked once per boot) each get their own warning naming them, nested $refs in walk order, allErrors judged apart', async () => {
    const declare = (app: Parameters<Parameters<typeof bootWarnings>[0]>[0]): void => {
      app.addSchema({ $id: 'Tags', type: 'array', uniqueItems: true, maxItems: 10 })
      app.addSchema({ $id: 'Slug', type: 'string', pattern: '^([a-z]+)*$' })
      app.addSchema({ $id: 'Post', type: 'object', properties: { tags: { $ref: 'Tags#' }, ids: { type: 'array', uniqueItems: true }, slug: { $ref: 'Slug#' } } })
      app.post('/a', { schema: { body: { $ref: 'Post#' } } }, async () => ({}))
      app.put('/b', { schema: { body: { type: 'object', properties: { post: { $ref: 'Post#' } } }, querystring: { type: 'object', properties: { t: { $ref: 'Tags#' } } } } }, async () => ({}))
      app.patch('/c', { schema: { body: { type: 'object', properties: { slug: { $ref: 'Slug#' }, post: { $ref: 'Post#' } } } } }, async () => ({}))
    }
    const warnings = await bootWarnings(declare)
    const unique = warnings.filter((w) => w.code === code).map((w) => [w.route, w.at])
    const patterns = warnings.filter((w) => w.code === 'ENC_WARN_SCHEMA_PATTERN_REDOS').map((w) => [w.route, w.at])
    expect(unique).to.deep.equal([['POST /a', ['body Post#/properties/ids']], ['PUT /b', ['body Post#/properties/ids']], ['PATCH /c', ['body Post#/properties/ids']]])
    expect(patterns).to.deep.equal([['POST /a', ['body Slug#/pattern']], ['PUT /b', ['body Slug#/pattern']], ['PATCH /c', ['body Slug#/pattern']]])
    // The same boot with allErrors: maxItems no longer bounds Tags, so its place appears where Post reaches it.
    const all = await bootWarnings(declare, { validator: { customOptions: { allErrors: true } } })
    expect(all.filter((w) => w.code === code).map((w) => [w.route, w.at])).to.deep.equal([
      ['POST /a', ['body Tags#', 'body Post#/properties/ids']],
      // Tags is followed once per route: the querystring's $ref to it adds no second place.
      ['PUT /b', ['body Tags#', 'body Post#/properties/ids']],
      ['PATCH /c', ['body Tags#', 'body Post#/properties/ids']],
    ])
  })

  it('response schemas and routes with a custom validatorCompiler do not warn', async () => {
    const warnings = await bootWarnings((app) => {
      app.get('/r', { schema: { response: { 200: { type: 'array', uniqueItems: true } } } }, async () => [])
      app.post('/v', { schema: { body: { type: 'array', uniqueItems: true } }, validatorCompiler: () => () => true }, async () => ({}))
    })
    expect(warnings).to.deep.equal([])
  })

  it('a lazily compiled route warns when its schema is first read (compileAll, or its first request), once', async () => {
    for (const first of ['compileAll', 'request'] as const) {
      const logger = recordingLogger()
      const app = server({ logger, schemaCompilation: 'lazy' })
      app.post('/lazy', { schema: { body: { type: 'array', uniqueItems: true } } }, async () => ({}))
      const warned = (): unknown[] => logger.entries.filter((e) => e.level === 'warn' && e.obj?.code === code).map((e) => e.obj?.route)
      await app.ready(first === 'compileAll' ? { compileAll: true } : undefined)
      if (first === 'request') {
        expect(warned()).to.deep.equal([])
        await app.inject({ method: 'POST', url: '/lazy', payload: [1, 2] })
      }
      await app.inject({ method: 'POST', url: '/lazy', payload: [3] })
      expect(warned(), first).to.deep.equal(['POST /lazy'])
      await app.close()
    }
  })

  it('with the default silent logger, the warning is a process warning with its code, once per process', async () => {
    const seen: Array<{ name: string, code?: string }> = []
    const listener = (warning: Error & { code?: string }): void => { seen.push({ name: warning.name, code: warning.code }) }
    process.on('warning', listener)
    try {
      for (let i = 0; i < 2; i++) {
        const app = server()
        app.post('/x', { schema: { body: { type: 'array', uniqueItems: true } } }, async () => ({}))
        await app.ready()
      }
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off('warning', listener)
    }
    // Once per process: an earlier test file may already have emitted it.
    expect(seen.filter((w) => w.code === code).length).to.be.at.most(1)
    expect(seen.every((w) => w.code !== code || w.name === 'EnclaveWarning')).to.equal(true)
  })
})
