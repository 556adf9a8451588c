// Type app (a program of its own; checked by ../type-fixtures.test.ts). Never run.
// The Fastify plugins' decorations, read from their own declarations: each plugin augments
// `fastify`'s FastifyRequest / FastifyReply / FastifyInstance, and one block hands those over to
// Enclave's RequestDecorations / ReplyDecorations / ScopeDecorations. Request and reply have no
// catch-all: a misspelt plugin member does not compile.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import cookie from '@fastify/cookie'
import jwt from '@fastify/jwt'
import multipart from '@fastify/multipart'
import sensible from '@fastify/sensible'
import fastifyStatic from '@fastify/static'
import {
  HttpError, Module, Post, Reply, Req, Route, createServer,
  type FastifyInstanceDecorations, type FastifyReplyDecorations, type FastifyRequestDecorations, type Request, type Reply as ReplyType,
} from '../../../src'

declare module '../../../src' {
  interface RequestDecorations extends FastifyRequestDecorations<FastifyRequest> {}
  interface ReplyDecorations extends FastifyReplyDecorations<FastifyReply> {}
  interface ScopeDecorations extends FastifyInstanceDecorations<FastifyInstance> {}
}
// @fastify/jwt types `request.user` (and what jwtVerify returns) by its own FastifyJWT interface.
declare module '@fastify/jwt' {
  interface FastifyJWT { payload: { sub: number }; user: { sub: number; name: string } }
}

const app = createServer()
app.register(cookie, { secret: 'a-cookie-secret' })
app.register(jwt, { secret: 'a-long-enough-secret-for-the-tests' })
app.register(multipart)
app.register(sensible)
app.register(fastifyStatic, { root: '/srv/public' })

app.addHook('onRequest', async (request) => {
  await request.jwtVerify()
  const name: string = request.user.name
  void name
})

app.post('/login', async (request, reply) => {
  const session: string | undefined = request.cookies.session
  const token: string = await reply.jwtSign({ sub: 1 })
  reply.setCookie('token', token, { httpOnly: true, path: '/', sameSite: 'strict' })
  return { session, token, claims: app.jwt.decode<{ sub: number }>(token) }
})

app.post('/avatar', async (request) => {
  const file = await request.file()
  if (file === undefined) throw app.httpErrors.badRequest('no file')
  return { name: file.filename, bytes: (await file.toBuffer()).length, multipart: request.isMultipart() }
})

app.get('/missing', async (_request, reply) => {
  reply.notFound('nothing here')
  return reply
})

app.get('/file', async (_request, reply) => reply.sendFile('index.html'))

// Misspelt or misused plugin members.
app.get('/typos', async (request, reply) => {
  // @ts-expect-error [TS2551] Property 'cookie' does not exist on type 'Request<RouteGeneric, {}>'. Did you mean 'cookies'?
  void request.cookie
  // @ts-expect-error [TS2551] Property 'setCookies' does not exist on type 'Reply<RouteGeneric>'. Did you mean 'setCookie'?
  reply.setCookies('a', 'b')
  // @ts-expect-error [TS2820] Type '"strictest"' is not assignable to type 'boolean | "none" | "strict" | "lax" | undefined'. Did you mean '"strict"'?
  reply.setCookie('a', 'b', { sameSite: 'strictest' })
  // @ts-expect-error [TS2551] Property 'nam' does not exist on type '{ sub: number; name: string; }'. Did you mean 'name'?
  return { name: request.user.nam }
})
// The scope has no catch-all either: a plugin's member is typed, an undeclared one does not compile.
// @ts-expect-error [TS2551] Property 'httpErrorz' does not exist on type 'Scope'. Did you mean 'httpErrors'?
void app.httpErrorz
// @ts-expect-error [TS2551] Property 'badRequst' does not exist on type 'HttpErrors'. Did you mean 'badRequest'?
void app.httpErrors.badRequst('no')

// The decorator layer: @Req() / @Reply() parameters carry the same members.
@Route('/session')
class SessionController {
  @Post('/')
  async login(@Reply() reply: ReplyType) {
    const token = await reply.jwtSign({ sub: 1 })
    reply.setCookie('token', token, { httpOnly: true })
    return { token }
  }

  @Post('/who')
  async who(@Req() request: Request) {
    const claims = await request.jwtVerify<{ sub: number }>()
    if (claims.sub === 0) throw new HttpError(401, 'anonymous')
    return { sub: claims.sub }
  }
}

@Module({ plugins: [[cookie, {}], [jwt, { secret: 'a-long-enough-secret-for-the-tests' }]], controllers: [SessionController] })
export class SessionModule {}
