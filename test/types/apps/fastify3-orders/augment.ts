// The service's module augmentation. Was: `declare module 'fastify' { interface FastifyInstance
// { ... } interface FastifyRequest { ... } interface FastifyReply { ... } }`.
import type { Db } from './plugins/db'
import type { Account } from './plugins/auth'

declare module '../../../../src' {
  interface ScopeDecorations {
    db: Db
    config: { currency: string; pageSize: number }
    verifyToken(token: string): Account | null
  }
  interface RequestDecorations {
    account: Account | null
    startedAt: bigint
  }
  interface ReplyDecorations {
    problem(status: number, detail: string): void
  }
}
