import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { get } from 'node:http'
import { dirname, join, relative } from 'node:path'
import { expect } from 'chai'
import ts from 'typescript'
import { until } from '../support/until'

// The Fastify 5 service moved onto createServer() (app.ts) and onto modules (app-module.ts), both
// run through the same requests (test/types/apps/fastify5-bookshop: its own
// program, type-checked by test/types/type-fixtures.test.ts, so its `declare module` blocks stay
// out of this one). Its files are emitted where tsc would put them, dist/test/types/apps/..., so
// their `../../../../src` imports reach dist/src and @fastify/autoload finds plugins/ and routes/
// as .js files. The expected answers are what Fastify 5.12.8 answered for the same requests with
// the same plugins; where Enclave answers otherwise it is a documented Fastify 3.27.4 rule
// (docs/fastify-compat.md, "Coming from Fastify 4 or 5"), pinned in its own test below.
const root = join(__dirname, '..', '..', '..')
const source = join(root, 'test', 'types', 'apps', 'fastify5-bookshop')
const out = join(root, 'dist', 'test', 'types', 'apps', 'fastify5-bookshop')

function emitApp(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name)
    if (entry.isDirectory()) { emitApp(file); continue }
    if (!entry.name.endsWith('.ts') || entry.name === 'misuses.ts') continue
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, esModuleInterop: true, experimentalDecorators: true, emitDecoratorMetadata: true,
    } })
    const target = join(out, relative(source, file)).replace(/\.ts$/, '.js')
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, outputText)
  }
}

interface Answer { status: number; headers: Headers; body: unknown }

for (const [layer, entry] of [['createServer()', 'app.js'], ['modules and a controller (createApp)', 'app-module.js']] as const) {
  describe(`a Fastify 5 service (autoload, env, sensible, jwt, rate-limit, cors, swagger, under-pressure, TypeBox) moved onto ${layer}`, function () {
    this.timeout(60_000)
    let app: { listen(o: { port: number; host: string }): Promise<string>; close(): Promise<void> }
    let base = ''
    let lines: Array<Record<string, unknown>>
    const call = async (method: string, path: string, init: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> => {
      const headers: Record<string, string> = { ...init.headers }
      let body: string | undefined
      if (init.body !== undefined) { body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body); headers['content-type'] ??= 'application/json' }
      const response = await fetch(base + path, { method, headers, body })
      const text = await response.text()
      let parsed: unknown = text
      try { parsed = JSON.parse(text) } catch { /* not JSON */ }
      return { status: response.status, headers: response.headers, body: parsed }
    }
    const token = async (username: string) => ((await call('POST', '/api/auth/login', { body: { username, password: 'pw' } })).body as { token: string }).token

    before(async () => {
      emitApp(source)
      const built = require(join(out, entry)) as { build(): Promise<typeof app>; lines: typeof lines }
      app = await built.build()
      lines = built.lines
      base = await app.listen({ port: 0, host: '127.0.0.1' })
    })
    let closed = false
    after(async () => { if (!closed) await app?.close() })

    it('boots with its lift()ed plugins/ folder loaded by @fastify/autoload in dependency order (auth after config)', async () => {
      expect(await call('GET', '/health')).to.include({ status: 200 }).and.to.have.deep.property('body', { status: 'ok', app: 'bookshop' })
    })

    it('answers the auth, books and authors routes as Fastify 5 did: jwt, sensible replies, @fastify/error codes, the typed error handler', async () => {
      const reader = { authorization: `Bearer ${await token('ann')}` }
      const admin = { authorization: `Bearer ${await token('root')}` }
      const expectations: Array<[string, string, Parameters<typeof call>[2], number, unknown]> = [
        ['POST', '/api/auth/login', { body: { username: 'ann', password: 'no' } }, 401, { statusCode: 401, error: 'UnauthorizedError', message: 'bad credentials' }],
        ['GET', '/api/auth/me', {}, 401, { statusCode: 401, error: 'UnauthorizedError', message: 'a valid bearer token is required' }],
        ['GET', '/api/auth/me', { headers: { authorization: 'Bearer nope' } }, 401, { statusCode: 401, error: 'UnauthorizedError', message: 'a valid bearer token is required' }],
        ['GET', '/api/auth/me', { headers: { ...reader, 'x-client': 'web' } }, 200, { sub: 'ann', role: 'reader', client: 'web', internal: false }],
        ['GET', '/api/auth/me', { headers: { ...reader, 'x-internal': '1' } }, 200, { sub: 'ann', role: 'reader', client: 'anonymous', internal: true }],
        ['GET', '/api/books?limit=1&tag=sf', {}, 200, { items: [{ id: 1, title: 'Dune', authorId: 1, tags: ['sf'], stock: 2 }], total: 1 }],
        ['GET', '/api/books/1', {}, 200, { id: 1, title: 'Dune', authorId: 1, tags: ['sf'], stock: 2 }],
        ['GET', '/api/books/99', {}, 404, { statusCode: 404, error: 'NotFoundError', message: 'no book 99' }],
        ['POST', '/api/books', { body: { title: 'X', authorId: 1 } }, 401, { statusCode: 401, error: 'UnauthorizedError', message: 'a valid bearer token is required' }],
        ['POST', '/api/books', { headers: reader, body: { title: 'Kindred', authorId: 2, tags: ['sf'] } }, 201, { id: 3, title: 'Kindred', authorId: 2, tags: ['sf'], stock: 1 }],
        ['POST', '/api/books/1/buy', {}, 200, { ok: true, left: 1 }],
        ['POST', '/api/books/2/buy', {}, 409, { statusCode: 409, code: 'APP_OUT_OF_STOCK', error: 'FastifyError', message: 'Book Emma is out of stock' }],
        ['POST', '/api/books/77/buy', {}, 404, { statusCode: 404, code: 'APP_BOOK_NOT_FOUND', error: 'FastifyError', message: 'Book 77 not found' }],
        ['DELETE', '/api/books/1', { headers: reader }, 403, { statusCode: 403, error: 'ForbiddenError', message: 'admins only' }],
        ['DELETE', '/api/books/3', { headers: admin }, 204, ''],
        ['DELETE', '/api/books/3', { headers: admin }, 404, { statusCode: 404, error: 'NotFoundError', message: 'Not Found' }],
        ['GET', '/api/authors/1', {}, 200, { id: 1, name: 'Herbert' }],
        ['GET', '/api/authors/9', {}, 404, { statusCode: 404, code: 'APP_AUTHOR_NOT_FOUND', error: 'FastifyError', message: 'Author 9 not found' }],
        ['POST', '/api/authors', { body: { name: 'Le Guin' } }, 201, { id: 3, name: 'Le Guin' }],
        ['GET', '/api/meta/boom', {}, 500, { statusCode: 500, error: 'Internal Server Error', message: 'something went wrong' }],
        ['GET', '/api/meta/teapot', {}, 418, { statusCode: 418, error: 'ImATeapotError', message: 'short and stout' }],
        ['GET', '/api/meta/tags?tag=a&tag=b', {}, 200, { q: { tag: ['a', 'b'] } }],
        ['GET', '/nope', {}, 404, { statusCode: 404, error: 'Not Found', message: 'no route GET /nope' }],
      ]
      for (const [method, path, init, status, body] of expectations) {
        const answer = await call(method, path, init)
        expect({ status: answer.status, body: answer.body }, `${method} ${path}`).to.deep.equal({ status, body })
      }
      expect((await call('POST', '/api/books', { headers: reader, body: { title: 'Parable', authorId: 2 } })).headers.get('location')).to.equal('/books/4')
      expect(lines.some((line) => line.msg === 'book created' && line.bookId === 3)).to.equal(true)
    })

    it('keeps the plugins\' headers, the route config and request.routeOptions as Fastify 5 gave them', async () => {
      const books = await call('GET', '/api/books?limit=1', { headers: { origin: 'https://shop.example', 'x-request-id': 'abc-1' } })
      expect([books.headers.get('x-books-api'), books.headers.get('x-request-id'), books.headers.get('access-control-allow-origin'), books.headers.get('access-control-allow-credentials')])
        .to.deep.equal(['1', 'abc-1', 'https://shop.example', 'true'])
      expect((await call('GET', '/api/books?limit=1', { headers: { origin: 'https://evil.example' } })).headers.get('access-control-allow-origin')).to.equal(null)
      const preflight = await call('OPTIONS', '/api/books', { headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } })
      expect([preflight.status, preflight.headers.get('access-control-allow-methods')]).to.deep.equal([204, 'GET,HEAD,POST'])
      const meta = await call('GET', '/api/meta/route/abc')
      expect(meta.body).to.deep.include({ url: '/api/meta/route/:name', method: 'GET', tag: 'meta-route', hasSchema: true, elapsedIsNumber: true })
      expect((await call('GET', '/status')).body).to.deep.equal({ status: 'ok' })
      const limited = [await call('GET', '/api/meta/limited'), await call('GET', '/api/meta/limited'), await call('GET', '/api/meta/limited')]
      expect(limited.map((a) => a.status)).to.deep.equal([200, 200, 429])
      expect(limited[2].body).to.deep.equal({ statusCode: 429, error: 'Error', message: 'Rate limit exceeded, retry in 1 minute' })
      const ui = await call('GET', '/docs')
      expect([ui.status, String(ui.body).includes('<title>Swagger UI</title>')]).to.deep.equal([200, true])
    })

    it('answers the Fastify 3.27.4 way where docs/fastify-compat.md says a Fastify 5 user will see a difference', async () => {
      const pairs: Array<[string, string, Parameters<typeof call>[2], number, unknown]> = [
        // ajv 6: 'should', the query string's validationContext 'query', its checks' order (Fastify 5: body must have required property 'password')
        ['POST', '/api/auth/login', { body: { username: '' } }, 400, { statusCode: 400, code: 'APP_VALIDATION', error: 'Bad Request', message: 'body/username should NOT be shorter than 1 characters', context: 'body' }],
        ['GET', '/api/books?limit=99', {}, 400, { statusCode: 400, code: 'APP_VALIDATION', error: 'Bad Request', message: 'querystring/limit should be <= 50', context: 'query' }],
        ['GET', '/api/books/xyz', {}, 400, { statusCode: 400, code: 'APP_VALIDATION', error: 'Bad Request', message: 'params/id should be integer', context: 'params' }],
        // a one-item array field is not coerced (Fastify 5: { tag: ['a'] })
        ['GET', '/api/meta/tags?tag=a', {}, 400, { statusCode: 400, code: 'APP_VALIDATION', error: 'Bad Request', message: 'querystring/tag should be array', context: 'query' }],
        // Enclave's own errors are FrameworkErrors with their own message (Fastify 5: FastifyError, "Body is not valid JSON but content-type is set to 'application/json'")
        ['POST', '/api/books/1/buy', { body: '{"title": ' }, 400, { statusCode: 400, error: 'FrameworkError', message: 'Body is not valid JSON: Unexpected end of JSON input' }],
      ]
      for (const [method, path, init, status, body] of pairs) {
        const answer = await call(method, path, init)
        expect({ status: answer.status, body: answer.body }, `${method} ${path}`).to.deep.equal({ status, body })
      }
      // 405 with Allow (Fastify 5: the not-found handler's 404)
      const put = await call('PUT', '/api/books/1', { body: {} })
      expect([put.status, put.headers.get('allow')]).to.deep.equal([405, 'GET, HEAD, DELETE'])
      // hostname keeps the port (Fastify 5: shop.example); host is Fastify 5's
      // fetch() sends its own Host: ask with node:http
      const meta = await new Promise<{ hostname: string; host: string }>((resolve, reject) => {
        get(base + '/api/meta/route/abc', { headers: { host: 'shop.example:8443' } }, (response) => {
          let text = ''
          response.setEncoding('utf8').on('data', (chunk: string) => { text += chunk }).on('end', () => resolve(JSON.parse(text)))
        }).on('error', reject)
      })
      expect([meta.hostname, meta.host]).to.deep.equal(['shop.example:8443', 'shop.example:8443'])
      // @fastify/swagger documents a prefixed '/' route at the prefix (Fastify 5: '/api/books/', the
      // URL it rewrites the onRoute hook's options object to after the hook has run)
      const paths = Object.keys(((await call('GET', '/docs/json')).body as { paths: Record<string, unknown> }).paths)
      expect(paths).to.include.members(['/api/books', '/api/authors', '/api/books/{id}', '/api/meta/route/{name}'])
    })

    it('runs onRequestAbort when a client leaves a slow route', async () => {
      const controller = new AbortController()
      const pending = fetch(base + '/api/meta/slow', { headers: { 'x-request-id': 'slow-abort' }, signal: controller.signal }).catch(() => 'aborted')
      // Abort only once the handler is running (it then waits for the client to leave, not for a
      // delay), so the abort lands mid-request however loaded the machine is.
      await until(() => lines.some((line) => line.msg === 'slow: started' && line.reqId === 'slow-abort'), 'the slow handler to start')
      controller.abort()
      expect(await pending).to.equal('aborted')
      await until(() => lines.some((line) => line.msg === 'client went away' && line.module === 'meta' && line.reqId === 'slow-abort'), 'the onRequestAbort log line')
    })

    it('runs its preClose hook, then onClose, on close()', async () => {
      await app.close()
      closed = true
      const order = lines.map((line) => line.msg).filter((msg) => msg === 'preClose: draining' || msg === 'onClose')
      expect(order).to.deep.equal(['preClose: draining', 'onClose'])
    })
  })
}
