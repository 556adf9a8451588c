// Was: `const db: FastifyPluginAsync<DbOptions> = async (fastify, opts) => { ... }; export default fp(db, { name: 'db' })`.
import { lift, type AsyncPlugin } from '../../../../../src'
import type { Order } from '../schemas'

export interface DbOptions { url: string; poolSize?: number }

export interface Db {
  orders: Map<number, Order>
  nextId(): number
  close(): Promise<void>
}

const dbPlugin: AsyncPlugin<DbOptions> = async (app, opts) => {
  const size: number = opts.poolSize ?? 4
  void size
  const url: string = opts.url
  void url
  let id = 0
  const db: Db = { orders: new Map(), nextId: () => ++id, close: async () => undefined }
  app.decorate('db', db)
  app.addHook('onClose', async (instance) => { await instance.db.close() })
}

export default lift(dbPlugin, { name: 'db' })
