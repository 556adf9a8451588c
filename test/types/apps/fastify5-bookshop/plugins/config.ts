import { lift } from '../../../../../src'
import env from '@fastify/env'

declare module '../../../../../src' {
  interface ScopeDecorations { config: { JWT_SECRET: string; RATE_MAX: number; APP_NAME: string } }
}

// Was: `export default fp(async (app) => { ... }, { name: 'config' })` (fastify-plugin): lift() takes
// the same name and dependencies, and @fastify/autoload orders a plugins/ folder by them.
export default lift(async (app) => {
  await app.register(env, {
    dotenv: false,
    data: { JWT_SECRET: 'a-secret-of-thirty-two-characters!!', RATE_MAX: 3 },
    schema: {
      type: 'object', required: ['JWT_SECRET'],
      properties: { JWT_SECRET: { type: 'string', minLength: 16 }, RATE_MAX: { type: 'integer', default: 3 }, APP_NAME: { type: 'string', default: 'bookshop' } },
    },
  })
}, { name: 'config' })
