// @fastify/swagger's spelling for the headers a status sends: `headers` at the top of a response
// status schema. Documentation only (ajv and fast-json-stringify ignore it): openapi() writes it as
// the OpenAPI Response Object's `headers`, the keyword check reads each header's schema instead of
// refusing `headers` as an unknown keyword. A content API documents ETag, Cache-Control and Link so.
import { expect } from 'chai'
import { Validator } from '@seriousme/openapi-schema-validator'
import { createServer } from '../../src/runtime'

const article = { type: 'object', properties: { slug: { type: 'string' } } } as const
const cacheHeaders = {
  etag: { type: 'string', description: 'Strong: the article version' },
  'cache-control': { type: 'string' },
} as const

describe('response headers declared in a response schema (@fastify/swagger\'s `headers`)', () => {
  it('documents them under that status in openapi(), each description beside its schema, and none in the body schema', async () => {
    const app = createServer()
    app.get('/articles/:slug', {
      schema: {
        response: {
          200: { ...article, headers: cacheHeaders },
          304: { description: 'Not Modified', headers: cacheHeaders },
          301: { description: 'Moved', headers: { location: { type: 'string', format: 'uri-reference' } } },
        },
      },
    }, async () => ({ slug: 'a' }))
    await app.ready()
    try {
      const document = app.openapi({ title: 'Content', version: '1.0.0' })
      const result = await new Validator().validate(document)
      expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined)
      const responses = document.paths['/articles/{slug}']!.get!.responses
      expect(responses['200']!.headers).to.deep.equal({
        etag: { description: 'Strong: the article version', schema: { type: 'string' } },
        'cache-control': { schema: { type: 'string' } },
      })
      expect(responses['200']!.content!['application/json']!.schema).to.deep.equal(article)
      expect(responses['304']).to.deep.equal({ description: 'Not Modified', headers: responses['200']!.headers })
      expect(responses['301']).to.deep.equal({ description: 'Moved', headers: { location: { schema: { type: 'string', format: 'uri-reference' } } } })
    } finally { await app.close() }
  })

  it('reads a status that only documents ({ description, headers }) as written, with jsonShorthand on or off', async () => {
    for (const jsonShorthand of [true, false]) {
      const app = createServer({ jsonShorthand })
      app.get('/a', { schema: { response: { 200: { ...article, headers: cacheHeaders }, 304: { description: 'Not Modified', headers: cacheHeaders } } } }, async (request, reply) => {
        reply.header('etag', '"v1"')
        return request.headers['if-none-match'] === '"v1"' ? reply.code(304).send() : { slug: 'a' }
      })
      try {
        expect((await app.inject({ url: '/a', headers: { 'if-none-match': '"v1"' } })).statusCode, `jsonShorthand ${jsonShorthand}`).to.equal(304)
        expect(app.openapi().paths['/a']!.get!.responses['304']).to.deep.equal({ description: 'Not Modified', headers: {
          etag: { description: 'Strong: the article version', schema: { type: 'string' } }, 'cache-control': { schema: { type: 'string' } },
        } })
      } finally { await app.close() }
    }
  })

  it('leaves validation and serialization as they were: the body is written by its properties alone', async () => {
    const app = createServer()
    app.get('/a', { schema: { response: { 200: { ...article, headers: cacheHeaders } } } }, async (_request, reply) => {
      reply.header('etag', '"v1"')
      return { slug: 'a', extra: 'dropped' }
    })
    try {
      const response = await app.inject({ url: '/a' })
      expect(response.statusCode).to.equal(200)
      expect(response.headers.etag).to.equal('"v1"')
      expect(response.body).to.equal('{"slug":"a"}')
    } finally { await app.close() }
  })

  it('checks each header\'s schema: a misspelt keyword there fails boot with ENC_ERR_SCH_UNKNOWN_KEYWORD naming the header', async () => {
    const app = createServer()
    app.get('/a', { schema: { response: { 200: { ...article, headers: { etag: { type: 'string', maxLenght: 80 } } } } } }, async () => ({ slug: 'a' }))
    const error = await app.ready().then(() => null, (e: unknown) => e as { code?: string; message: string })
    await app.close()
    expect(error?.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
    expect(error?.message).to.contain("header 'etag'").and.to.contain('maxLenght').and.to.contain('maxLength')
  })

  it('still refuses a `headers` that is not an object of schemas (a typo, not documentation)', async () => {
    const app = createServer()
    app.get('/a', { schema: { response: { 200: { ...article, headers: ['etag'] } } } }, async () => ({ slug: 'a' }))
    const error = await app.ready().then(() => null, (e: unknown) => e as { code?: string; message: string })
    await app.close()
    expect(error?.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
    expect(error?.message).to.contain("'headers'")
  })
})
