import 'reflect-metadata'
import { expect } from 'chai'
import {
  Body, DecorateRequest, ErrorHandler, Get, HttpError, Module, OnRequest, Params, Post, Query, Reply, Route, createParamDecorator, type CustomParam, type Request,
} from '../../src'
import { createApp } from '../../src/modules'
import { getParams } from '../../src/decorators/internal'
import { declarationError } from './helpers'

interface Account { id: number; name: string }

// The factories read what a guard left on the request: a header stands in for the guard here.
function accountOf(request: Request): Account {
  const name = request.headers['x-account']
  if (typeof name !== 'string') throw new HttpError(401, 'No account')
  return { id: name.length, name }
}

const CurrentAccount = createParamDecorator(function CurrentAccount<K extends keyof Account = never>(data: K | undefined, request: Request) {
  const account = accountOf(request)
  // Generic in the key, so @CurrentAccount() types Account and @CurrentAccount('id') number.
  return (data === undefined ? account : account[data]) as [K] extends [never] ? Account : Account[K]
})
const AsyncAccount = createParamDecorator(async (_data: undefined, request: Request) => {
  await new Promise((resolve) => setImmediate(resolve))
  return accountOf(request)
})
const StatusOf = createParamDecorator((_data: undefined, _request: Request, reply: Reply) => reply.statusCode)

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } as const
const nameBody = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } as const

@Route('/accounts')
class Accounts {
  @Get('/me') me(@CurrentAccount() account: CustomParam<Account>) { return account }
  @Get('/me/id') myId(@CurrentAccount('id') id: CustomParam<number>) { return { id } }
  @Get('/async') later(@AsyncAccount() account: CustomParam<Account>) { return account }
  @Get('/status') status(@StatusOf() code: CustomParam<number>) { return { code } }

  @Post('/:id', { schema: { params: idParams, body: nameBody } })
  mixed(@Body('name') name: string, @CurrentAccount('name') by: CustomParam<string>, @Params('id') id: number, @AsyncAccount() account: CustomParam<Account>, @Query() query: Record<string, string>) {
    return { name, by, id, account: account.id, query }
  }
}

async function withAccounts<T>(run: (app: Awaited<ReturnType<typeof createApp>>) => Promise<T>, extra: { errorHandler?: boolean } = {}): Promise<T> {
  @Module({ controllers: [Accounts] }) class Plain {}
  @Module({ controllers: [Accounts] })
  class Reshaping {
    @ErrorHandler() onError(error: Error & { statusCode?: number }, _request: Request, reply: Reply) {
      reply.code(error.statusCode ?? 500).send({ reshaped: error.message })
    }
  }
  const app = await createApp(extra.errorHandler === true ? Reshaping : Plain)
  try { return await run(app) } finally { await app.close() }
}

describe('createParamDecorator() (NestJS custom parameter decorators)', () => {
  it("a custom parameter decorator's factory value is the handler's argument, per request", () => withAccounts(async (app) => {
    expect((await app.inject({ url: '/accounts/me', headers: { 'x-account': 'ada' } })).json()).to.deep.equal({ id: 3, name: 'ada' })
    expect((await app.inject({ url: '/accounts/me', headers: { 'x-account': 'grace' } })).json()).to.deep.equal({ id: 5, name: 'grace' })
  }))

  it("the decorator's argument is the factory's data (@CurrentAccount('id'))", () => withAccounts(async (app) => {
    expect((await app.inject({ url: '/accounts/me/id', headers: { 'x-account': 'ada' } })).json()).to.deep.equal({ id: 3 })
  }))

  it("an async factory's promise is awaited before the handler runs", () => withAccounts(async (app) => {
    expect((await app.inject({ url: '/accounts/async', headers: { 'x-account': 'ada' } })).json()).to.deep.equal({ id: 3, name: 'ada' })
  }))

  it('the factory gets the reply as its third argument', () => withAccounts(async (app) => {
    expect((await app.inject({ url: '/accounts/status' })).json()).to.deep.equal({ code: 200 })
  }))

  it('composes with @Body/@Params/@Query in any order, sync and async custom parameters together', () => withAccounts(async (app) => {
    const response = await app.inject({ method: 'POST', url: '/accounts/7?x=1', headers: { 'x-account': 'ada' }, payload: { name: 'n' } })
    expect(response.json()).to.deep.equal({ name: 'n', by: 'ada', id: 7, account: 3, query: { x: '1' } })
  }))

  it("a factory's throw answers as the handler's error would (401 from an HttpError), sync and async", () => withAccounts(async (app) => {
    for (const url of ['/accounts/me', '/accounts/async']) {
      const response = await app.inject({ url })
      expect(response.statusCode, url).to.equal(401)
      expect(response.json(), url).to.deep.include({ statusCode: 401, message: 'No account' })
    }
  }))

  it("a factory's throw or rejection goes through the module's error handler", () => withAccounts(async (app) => {
    for (const url of ['/accounts/me', '/accounts/async']) {
      const response = await app.inject({ url })
      expect(response.statusCode, url).to.equal(401)
      expect(response.json(), url).to.deep.equal({ reshaped: 'No account' })
    }
  }, { errorHandler: true }))

  it('validation runs before the factory: a 400 does not call it', async () => {
    let calls = 0
    const Counted = createParamDecorator(() => { calls++; return 1 })
    @Route('/') class C { @Post('/', { schema: { body: nameBody } }) h(@Counted() n: CustomParam<number>, @Body() b: { name: string }) { return { n, b } } }
    @Module({ controllers: [C] }) class App {}
    const app = await createApp(App)
    try {
      expect((await app.inject({ method: 'POST', url: '/', payload: {} })).statusCode).to.equal(400)
      expect(calls).to.equal(0)
      expect((await app.inject({ method: 'POST', url: '/', payload: { name: 'x' } })).json()).to.deep.equal({ n: 1, b: { name: 'x' } })
      expect(calls).to.equal(1)
    } finally { await app.close() }
  })

  it('a custom parameter reads what a guard put on the request (request.user, the NestJS @CurrentUser())', async () => {
    const User = createParamDecorator((_data: undefined, request: Request) => (request as Request & { who: string }).who)
    @Route('/') @OnRequest((request: Request) => { (request as Request & { who: string }).who = 'guarded' })
    class C { @Get('/') h(@User() who: CustomParam<string>) { return { who } } }
    @DecorateRequest('who', '') @Module({ controllers: [C] }) class App {}
    const app = await createApp(App)
    try {
      expect((await app.inject({ url: '/' })).json()).to.deep.equal({ who: 'guarded' })
    } finally { await app.close() }
  })

  it('records the factory and its data in the parameter metadata', () => {
    class C { @Get('/') h(@CurrentAccount('id') _id: CustomParam<number>) {} }
    const [meta] = getParams(C, 'h')
    expect(meta).to.include({ index: 0, source: 'custom', key: null })
    expect(meta.custom).to.include({ data: 'id', name: 'CurrentAccount' })
  })

  it('refuses a factory that is not a function, at createParamDecorator()', () => {
    const error = declarationError(() => createParamDecorator(undefined as unknown as () => 1))
    expect(error.code).to.equal('ENC_ERR_DECL_TARGET')
    expect(error.message).to.contain('createParamDecorator() takes a factory').and.contain('circular import')
  })

  it('refuses a custom parameter decorator on a constructor parameter or beside another parameter decorator, at declaration', () => {
    const onConstructor = declarationError(() => (CurrentAccount() as unknown as (t: object, k: undefined, i: number) => void)(class K {}, undefined, 0))
    expect(onConstructor.code).to.equal('ENC_ERR_DECL_TARGET')
    const twice = declarationError(() => { class D { @Get('/') h(@CurrentAccount() @Body() _x: CustomParam<Account>) {} } return D })
    expect(twice.code).to.equal('ENC_ERR_DECL_PARAM_DUPLICATE')
    expect(twice.message).to.contain('@CurrentAccount() on parameter 0 of D.h')
  })

  it('boot refuses a custom parameter decorator on a controller method that declares no route, naming the method and module', async () => {
    @Route('/') class C {
      @Get('/') ok() { return {} }
      helper(@CurrentAccount() _account: CustomParam<Account>) { return 1 }
    }
    @Module({ controllers: [C] }) class App {}
    const error = await createApp(App).then(() => expect.fail('boot should fail'), (e: Error & { code: string }) => e)
    expect(error.code).to.equal('ENC_ERR_MODULE_PARAM_MISPLACED')
    expect(error.message).to.contain('C.helper (listed in App)').and.contain('@CurrentAccount()').and.contain('declares no route')
  })

  it('boot refuses a built-in parameter decorator on a controller method that declares no route', async () => {
    @Route('/') class C { @Get('/') ok() { return {} } helper(@Body() _b: unknown) { return 1 } }
    @Module({ controllers: [C] }) class App {}
    const error = await createApp(App).then(() => expect.fail('boot should fail'), (e: Error & { code: string }) => e)
    expect(error.code).to.equal('ENC_ERR_MODULE_PARAM_MISPLACED')
    expect(error.message).to.contain('@Body()')
  })

  it('boot refuses a parameter decorator on a module class method', async () => {
    @Module({}) class App { helper(@CurrentAccount() _account: CustomParam<Account>) { return 1 } }
    const error = await createApp(App).then(() => expect.fail('boot should fail'), (e: Error & { code: string }) => e)
    expect(error.code).to.equal('ENC_ERR_MODULE_PARAM_MISPLACED')
    expect(error.message).to.contain('App.helper (module App)')
  })
})
