// Was: `import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'`
import type { AsyncPlugin } from '../../../../../src'
import { Type } from '@fastify/type-provider-typebox'

const Login = Type.Object({ username: Type.String({ minLength: 1 }), password: Type.String() }, { additionalProperties: false })
const Token = Type.Object({ token: Type.String() })

const auth: AsyncPlugin = async (app) => {
  app.post('/login', { schema: { body: Login, response: { 200: Token } } }, async (request, reply) => {
    const { username, password } = request.body
    if (password !== 'pw') return reply.unauthorized('bad credentials')
    return { token: app.jwt.sign({ sub: username, role: username === 'root' ? 'admin' : 'reader' }) }
  })
  app.get('/me', { onRequest: [app.authenticate] }, async (request) => {
    return { sub: request.user.sub, role: request.user.role, client: request.getDecorator<{ requestStartedBy: string }>('ctx').requestStartedBy, internal: request.isInternal }
  })
}
export default auth
export const autoPrefix = '/auth'
