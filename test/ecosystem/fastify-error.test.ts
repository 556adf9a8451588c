import { expect } from 'chai'
import { Writable } from 'node:stream'
import createError from '@fastify/error'
import fastify3 from 'fastify3'
import { declaredOnBoth, server } from '../support/servers'

// @fastify/error (its README: `createError(code, message [, statusCode [, Base]])`, `%s` in the
// message filled from the constructor's arguments, `{ cause }`), the errors Fastify's plugins throw,
// thrown from handlers in Enclave and compared with Fastify 3.27.4 throwing the same ones: status,
// `code` and message in the answer (docs/errors.md, "Errors": a 4xx shows its message, a 5xx only the reason
// phrase), and the error's line in the log.
const NoSuchBook = createError('BOOKS_NOT_FOUND', 'No book %s', 404)
const Conflict = createError('BOOKS_CONFLICT', 'Book %s exists (revision %d)', 409)
const Quota = createError('BOOKS_QUOTA', 'Quota of %d exceeded', 429, RangeError)
const StoreDown = createError('BOOKS_STORE_DOWN', 'Store %s unreachable', 503)
const NoStatus = createError('BOOKS_NO_STATUS', 'No status given')

function capture(): { stream: Writable; lines: () => Array<Record<string, any>> } {
  const chunks: string[] = []
  const stream = new Writable({ write(chunk, _encoding, done) { chunks.push(String(chunk)); done() } })
  return { stream, lines: () => chunks.join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)) }
}

interface Declarer { get: Function }
function declareBooks(app: Declarer): void {
  app.get('/books/:id', async (request: { params: { id: string } }) => { throw new NoSuchBook(request.params.id) })
  app.get('/conflict', async () => { throw new Conflict('dune', 3) })
  app.get('/quota', async () => { throw new Quota(100) })
  app.get('/down', async () => { throw new StoreDown('eu-1', { cause: new Error('ECONNREFUSED') }) })
  app.get('/nostatus', async () => { throw new NoStatus() })
  // The callback style: the error handed to reply.send() is answered the same way.
  app.get('/sent', (_request: unknown, reply: { send(e: Error): void }) => { reply.send(new Conflict('sent', 1)) })
}

/** The same routes on Enclave and on Fastify 3.27.4, to compare answers. */
const booksOnBoth = () => declaredOnBoth(declareBooks, fastify3())

describe('@fastify/error in Enclave', () => {
  it('answers a 4xx error made by createError with its status, code and formatted message, as Fastify 3.27.4 does', async () => {
    const { app, reference } = booksOnBoth()
    try {
      for (const url of ['/books/7', '/conflict', '/quota', '/sent']) {
        const ours = await app.inject({ method: 'GET', url })
        const theirs = await reference.inject({ method: 'GET', url })
        expect(ours.statusCode, url).to.equal(theirs.statusCode)
        expect(ours.json(), url).to.deep.equal(theirs.json())
      }
      expect((await app.inject({ method: 'GET', url: '/books/7' })).json())
        .to.deep.equal({ statusCode: 404, code: 'BOOKS_NOT_FOUND', error: 'Not Found', message: 'No book 7' })
      expect((await app.inject({ method: 'GET', url: '/quota' })).json())
        .to.deep.equal({ statusCode: 429, code: 'BOOKS_QUOTA', error: 'Too Many Requests', message: 'Quota of 100 exceeded' })
    } finally { await reference.close() }
  })

  it('answers a 5xx error made by createError with its status and only the reason phrase, no code (docs/errors.md, "Errors"), where Fastify 3 shows both', async () => {
    const { app, reference } = booksOnBoth()
    try {
      const down = await app.inject({ method: 'GET', url: '/down' })
      expect(down.statusCode).to.equal(503)
      expect(down.json()).to.deep.equal({ statusCode: 503, error: 'Service Unavailable', message: 'Service Unavailable' })
      expect((await reference.inject({ method: 'GET', url: '/down' })).json()).to.include({ code: 'BOOKS_STORE_DOWN', message: 'Store eu-1 unreachable' })
      // No status given: createError defaults to 500.
      const none = await app.inject({ method: 'GET', url: '/nostatus' })
      expect(none.statusCode).to.equal(500)
      expect(none.json()).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
      expect((await reference.inject({ method: 'GET', url: '/nostatus' })).statusCode).to.equal(500)
    } finally { await reference.close() }
  })

  it('logs the error with its code, message and name: a 4xx at info, a 5xx at error with its stack, the cause kept', async () => {
    const log = capture()
    const app = server({ logger: { stream: log.stream, level: 'info' } })
    declareBooks(app as unknown as Declarer)
    await app.inject({ method: 'GET', url: '/conflict' })
    await app.inject({ method: 'GET', url: '/down' })
    const errorLines = log.lines().filter((line) => line.err !== undefined)
    const conflict = errorLines.find((line) => line.err.code === 'BOOKS_CONFLICT')!
    expect(conflict.level).to.equal(30)
    expect(conflict.msg).to.equal('Book dune exists (revision 3)')
    expect(conflict.err).to.include({ type: 'FastifyError', message: 'Book dune exists (revision 3)', statusCode: 409 })
    expect(conflict.res.statusCode).to.equal(409)
    const down = errorLines.find((line) => line.err.code === 'BOOKS_STORE_DOWN')!
    expect(down.level).to.equal(50)
    expect(down.msg).to.equal('Store eu-1 unreachable')
    expect(down.err.stack).to.match(/^FastifyError: Store eu-1 unreachable\n/)
    expect(JSON.stringify(down.err)).to.contain('ECONNREFUSED')
  })

  it('keeps the error an instance of its class and of the Base given, so an error handler can branch on it', async () => {
    const app = server()
    app.setErrorHandler(async (error, _request, reply) => {
      if (error instanceof Quota) return reply.code(429).send({ retry: true, isRange: error instanceof RangeError, code: (error as { code?: string }).code })
      throw error
    })
    declareBooks(app as unknown as Declarer)
    expect((await app.inject({ method: 'GET', url: '/quota' })).json()).to.deep.equal({ retry: true, isRange: true, code: 'BOOKS_QUOTA' })
    expect((await app.inject({ method: 'GET', url: '/books/1' })).statusCode).to.equal(404)
  })
})
