// What the ported service's types read, compared exactly (`Exactly<A, B>`: `any` equals nothing but
// `any`, so a part that silently became `any` fails), and the misuses Fastify's types refused too.
import type { AsyncPlugin, CallbackPlugin, Reply, Request, ServerLogger } from '../../../../src'
import { build } from './app'
import type { Account, AuthOptions } from './plugins/auth'
import type { Db, DbOptions } from './plugins/db'
import type { GetOrder, Order, ShipOrder } from './schemas'
import { OrderInput, listQuery } from './schemas'
import { ship } from './routes/admin'

type Exactly<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
declare function holds<T extends true>(value: T): void

const app = build()
holds<Exactly<typeof app.db, Db>>(true)
holds<Exactly<typeof app.config.currency, string>>(true)
holds<Exactly<ReturnType<typeof app.verifyToken>, Account | null>>(true)

app.post('/probe', { schema: { body: OrderInput, querystring: listQuery } }, async (request, reply) => {
  holds<Exactly<typeof request.body, { sku: string; quantity: number; note?: string }>>(true)
  // `default: 1`: ajv fills it in, so json-schema-to-ts reads it as always there.
  holds<Exactly<typeof request.query.page, number>>(true)
  holds<Exactly<typeof request.query.status, 'open' | 'shipped' | undefined>>(true)
  holds<Exactly<typeof request.account, Account | null>>(true)
  holds<Exactly<typeof request.startedAt, bigint>>(true)
  holds<Exactly<typeof request.log, ServerLogger>>(true)
  reply.problem(400, 'probe')
})

app.get<GetOrder>('/probe/:id', async (request, reply) => {
  holds<Exactly<typeof request.params, { id: number }>>(true)
  holds<Exactly<typeof request.headers['x-tenant'], string | undefined>>(true)
  // @ts-expect-error [TS2345] Argument of type '{ id: number; }' is not assignable to parameter of type
  return reply.code(200).send({ id: 1 })
})

declare const shipRequest: Request<ShipOrder>
holds<Exactly<typeof shipRequest.body, { carrier: 'ups' | 'dhl'; tracking?: string }>>(true)
holds<Exactly<Parameters<typeof ship>[1], Reply<ShipOrder>>>(true)

// The plugins' options are checked where they are registered, as FastifyPluginAsync<Options> checks them.
declare const dbPlugin: AsyncPlugin<DbOptions>
declare const authPlugin: CallbackPlugin<AuthOptions>
// @ts-expect-error [TS2345] Property 'url' is missing in type '{ poolSize: number; }' but required in type 'DbOptions'.
app.register(dbPlugin, { poolSize: 2 })
// @ts-expect-error [TS2345] Type 'string' is not assignable to type 'Account'.
app.register(authPlugin, { tokens: { t: 'ada' } })
// @ts-expect-error [TS2554] Expected 2 arguments, but got 1.
app.register(dbPlugin)
// A decoration declared as a function is written with `this` the holder, as Fastify types it.
app.decorateReply('problem', function (status: number) {
  // @ts-expect-error [TS2339] Property 'jwtSign' does not exist on type
  this.jwtSign({ status })
})
// A misspelt decoration is still refused.
// @ts-expect-error [TS2551] Property 'acount' does not exist on type
app.get('/typo', async (request) => request.acount)
holds<Exactly<Order['status'], 'open' | 'shipped'>>(true)
