import 'reflect-metadata'
import { Writable } from 'node:stream'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import { Get, Module, Route } from '../../src/decorators'
import { createApp, Logger, resolveProvider } from '../../src/modules'

function capture(): { lines: Array<Record<string, unknown>>; stream: Writable } {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk))); done() } })
  return { lines, stream }
}

@injectable()
class BookService {
  constructor(readonly log: Logger) {}
  list() { this.log.info({ count: 0 }, 'listing books'); return [] }
}

@Route('/books') class BooksController {
  constructor(private readonly books: BookService) {}
  @Get('/') list() { return this.books.list() }
}

@Module({ prefix: '/shop', providers: [BookService], controllers: [BooksController] }) class ShopModule {}
@Module({ plugins: [ShopModule] }) class AppModule {}

describe('Logger: the app logger injectable in services, a child per module (dx §4)', () => {
  it('injects a child of the app logger bound to the declaring module\'s path, with the app\'s destination', async () => {
    const { lines, stream } = capture()
    const app = await createApp(AppModule, { logger: { level: 'info', stream } as never })
    try {
      await app.inject({ url: '/shop/books' })
      const line = lines.find((l) => l.msg === 'listing books')
      expect(line).to.include({ module: 'AppModule > ShopModule', count: 0, level: 30 })
      // The same singleton every consumer of the module gets.
      expect(resolveProvider(app, BookService, ShopModule).log).to.equal(resolveProvider(app, Logger, ShopModule))
    } finally { await app.close() }
  })

  it('works with the logger off (a silent logger), and in the root module', async () => {
    @injectable() class RootService { constructor(readonly log: Logger) {} }
    @Module({ providers: [RootService] }) class Root {}
    const app = await createApp(Root)
    try {
      const service = resolveProvider(app, RootService)
      expect(() => service.log.info('nothing')).to.not.throw()
    } finally { await app.close() }
  })

  it('a module that provides its own Logger replaces it for itself and its children', async () => {
    const mine = { info() {}, warn() {}, error() {}, debug() {} }
    @injectable() class S { constructor(readonly log: Logger) {} }
    @Module({ providers: [{ provide: Logger, useValue: mine }, S] }) class Root {}
    const app = await createApp(Root)
    try {
      expect(resolveProvider(app, S).log).to.equal(mine)
    } finally { await app.close() }
  })
})
