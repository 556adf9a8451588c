// newcomer17: the service an Express team builds on Enclave, compact. One module tree with the
// official plugins an Express app's middleware maps to (docs/migrating-from-express.md, "Coming from Express"): helmet, cors,
// rate limiting in a real redis-server (started here on a free loopback port, stopped by pid),
// cookie sessions and login, CSRF, uploads stored on disk, downloads with Range and
// content-disposition, static files and a server-rendered page (ejs). What the other ecosystem
// tests check one plugin at a time, here together, as they meet in one app.
import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import { createWriteStream } from 'node:fs'
import { mkdtemp, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import cookie from '@fastify/cookie'
import session from '@fastify/session'
import csrf from '@fastify/csrf-protection'
import multipart from '@fastify/multipart'
import fastifyStatic from '@fastify/static'
import view from '@fastify/view'
import cors from '@fastify/cors'
import helmet from '@fastify/helmet'
import rateLimit from '@fastify/rate-limit'
import Redis from 'ioredis'
import ejs from 'ejs'
import { Body, Get, HttpError, Module, OnRequest, Params, Post, Query, Reply, Req, Route, createApp, inject, injectable, usePlugin, type Reply as ReplyT, type Request } from '../../src'
import { track } from '../support/servers'
import { startRedis, stop, type Child } from './redis/processes'

interface Session { get(key: string): unknown; set(key: string, value: unknown): void; destroy(): Promise<void> }
interface Upload { filename: string; mimetype: string; file: NodeJS.ReadableStream & { truncated: boolean } }
// The plugins' members, read through casts: a `declare module` here would be global to the test
// program, where other tests declare some of these names themselves.
const sessionOf = (req: Request) => (req as unknown as { session: Session }).session
const fileOf = (req: Request) => (req as unknown as { file(): Promise<Upload | undefined> }).file()
type PluginReply = ReplyT & { generateCsrf(): string; view(page: string, data: object): ReplyT; sendFile(name: string, root: string, options: object): ReplyT }

interface FileMeta { id: string; name: string; type: string; size: number; owner: string }

class RedisClient extends Redis {}

@injectable()
class Store {
  readonly users = new Map([['ada', 'lovelace']])
  readonly files = new Map<string, FileMeta>()
  constructor(@inject('UPLOAD_DIR') readonly dir: string) {}
}

function signedIn(req: Request): string {
  const user = sessionOf(req).get('user')
  if (typeof user !== 'string') throw new HttpError(401, 'sign in first')
  return user
}

// docs/plugins.md "In a controller": fastify.csrfProtection is a scope decoration, so a guard calls it.
@injectable()
class CsrfCheck {
  handle(request: Request, reply: ReplyT, done: (error?: Error) => void): void {
    (request.server as unknown as { csrfProtection(q: Request, r: ReplyT, d: typeof done): void }).csrfProtection(request, reply, done)
  }
}

@Route('/auth')
class AuthController {
  constructor(private readonly store: Store) {}

  @Post('/login', {
    schema: { body: { type: 'object', required: ['user', 'password'], properties: { user: { type: 'string' }, password: { type: 'string' } } } },
    config: { rateLimit: { max: 3, timeWindow: '1 minute' } },     // brute force: express-rate-limit on one route
  })
  login(@Body() body: { user: string; password: string }, @Req() req: Request) {
    if (this.store.users.get(body.user) !== body.password) throw new HttpError(401, 'bad credentials')
    sessionOf(req).set('user', body.user)
    return { user: body.user }
  }

  @Get('/csrf')
  token(@Reply() reply: ReplyT) { return { token: (reply as PluginReply).generateCsrf() } }

  @OnRequest(CsrfCheck)
  @Post('/logout')
  async logout(@Req() req: Request) { await sessionOf(req).destroy(); return { bye: true } }
}

@Route('/files')
class FilesController {
  constructor(private readonly store: Store) {}

  @Post('/', { schema: { consumes: ['multipart/form-data'] } })
  async upload(@Req() req: Request, @Reply() reply: ReplyT) {
    const owner = signedIn(req)
    const file = await fileOf(req)
    if (file === undefined) throw new HttpError(400, 'a file is required')
    const id = crypto.randomUUID()
    const path = join(this.store.dir, id)
    try {
      await pipeline(file.file, createWriteStream(path))
      if (file.file.truncated) throw new HttpError(413, 'the file is too large')
    } catch (error) {
      await rm(path, { force: true })
      throw error
    }
    const meta = { id, name: file.filename, type: file.mimetype, size: (await stat(path)).size, owner }
    this.store.files.set(id, meta)
    return reply.code(201).send(meta)
  }

  @Get('/', { schema: { querystring: { type: 'object', properties: { page: { type: 'integer', minimum: 1, default: 1 }, limit: { type: 'integer', minimum: 1, maximum: 50, default: 2 } } } } })
  list(@Query() q: { page: number; limit: number }) {
    const all = [...this.store.files.values()]
    return { page: q.page, total: all.length, items: all.slice((q.page - 1) * q.limit, q.page * q.limit).map((f) => f.name) }
  }

  @Get('/:id')
  download(@Params('id') id: string, @Reply() reply: ReplyT) {
    const meta = this.store.files.get(id)
    if (meta === undefined) throw new HttpError(404, 'no such file')
    reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(meta.name)}`)
    return (reply.type(meta.type) as PluginReply).sendFile(meta.id, this.store.dir, { contentType: false })
  }
}

@Route('/')
class PagesController {
  constructor(private readonly store: Store) {}

  @Get('/')
  home(@Reply() reply: ReplyT) { return (reply as PluginReply).view('index.ejs', { title: 'Files', names: [...this.store.files.values()].map((f) => f.name) }) }
}

function appModule(dir: string, uploads: string, redisPort: number, nameSpace: string) {
  @Module({
    plugins: [
      [helmet, { contentSecurityPolicy: false }],
      [cors, { origin: ['https://app.example'], credentials: true }],
      usePlugin(rateLimit, { inject: [RedisClient], useFactory: (redis: RedisClient) => ({ redis, max: 100, timeWindow: '1 minute', nameSpace }) }),
      [cookie, {}],
      [session, { secret: 'a secret with at least 32 characters!', cookie: { secure: false } }],
      [csrf, { sessionPlugin: '@fastify/session' as const }],
      [multipart, { limits: { fileSize: 64, files: 1 } }],
      [fastifyStatic, { root: join(dir, 'public'), prefix: '/public/', serve: true }],
      [view, { engine: { ejs }, root: join(dir, 'views') }],
    ],
    controllers: [AuthController, FilesController, PagesController],
    providers: [Store, CsrfCheck, { provide: 'UPLOAD_DIR', useValue: uploads }, {
      provide: RedisClient,
      useFactory: () => new RedisClient(redisPort, '127.0.0.1', { maxRetriesPerRequest: 1 }),
      dispose: (client: RedisClient) => client.quit(),
    }],
  })
  class AppModule {}
  return AppModule
}

describe('an Express team\'s service on Enclave: sessions, CSRF, uploads, downloads, static, views, cors, helmet, Redis rate limit (docs/migrating-from-express.md, "Coming from Express")', function () {
  this.timeout(30_000)
  let redis: Child | undefined
  let redisPort = 0
  let dir = ''

  before(async () => {
    const started = await startRedis()
    redis = started.child
    redisPort = started.port
    dir = await mkdtemp(join(tmpdir(), 'enclave-express-service-'))
    await mkdir(join(dir, 'public'))
    await mkdir(join(dir, 'views'))
    await writeFile(join(dir, 'public', 'site.css'), 'body { color: black }')
    await writeFile(join(dir, 'views', 'index.ejs'), '<h1><%= title %></h1><% names.forEach(function (n) { %><li><%= n %></li><% }) %>')
  })

  after(async () => {
    await stop(redis)
    await rm(dir, { recursive: true, force: true })
  })

  /** A fresh app with its own upload directory and, unless given, its own rate-limit namespace in Redis. */
  async function boot(nameSpace = `express-service-${crypto.randomUUID()}-`) {
    const uploads = await mkdtemp(join(dir, 'uploads-'))
    return { app: track(await createApp(appModule(dir, uploads, redisPort, nameSpace))), uploads }
  }

  it('signs in with a session cookie, uploads a file to disk, lists it paginated, downloads it whole and by Range, renders it in a page', async () => {
    const { app, uploads } = await boot()
    const agent = request.agent(app.server)
    await agent.post('/files').attach('file', Buffer.from('x'), 'a.txt').expect(401, { statusCode: 401, error: 'Unauthorized', message: 'sign in first' })
    await agent.post('/auth/login').send({ user: 'ada', password: 'lovelace' }).expect(200, { user: 'ada' })
    const names = ['résumé 2026.txt', 'b.txt', 'c.txt']
    const ids: string[] = []
    for (const [i, name] of names.entries()) {
      const res = await agent.post('/files').attach('file', Buffer.from(`file number ${i}`), name).expect(201)
      expect(res.body).to.include({ name, type: 'text/plain', size: 13, owner: 'ada' })
      ids.push(res.body.id)
    }
    expect((await readdir(uploads)).sort()).to.deep.equal([...ids].sort())
    await agent.get('/files?page=2').expect(200, { page: 2, total: 3, items: ['c.txt'] })
    await agent.get('/files?page=0').expect(400, { statusCode: 400, error: 'Bad Request', message: 'querystring/page should be >= 1' })
    const whole = await agent.get(`/files/${ids[0]}`).expect(200, 'file number 0')
    expect(whole.headers['content-disposition']).to.equal(`attachment; filename*=UTF-8''${encodeURIComponent('résumé 2026.txt')}`)
    expect(whole.headers['content-type']).to.equal('text/plain')
    await agent.get(`/files/${ids[0]}`).set('range', 'bytes=5-10').expect(206, 'number').expect('content-range', 'bytes 5-10/13')
    await agent.get(`/files/${ids[0]}`).set('range', 'bytes=50-60').expect(416)
    await agent.get('/files/nope').expect(404, { statusCode: 404, error: 'Not Found', message: 'no such file' })
    const page = await agent.get('/').expect(200).expect('content-type', /^text\/html/)
    expect(page.text).to.equal('<h1>Files</h1><li>résumé 2026.txt</li><li>b.txt</li><li>c.txt</li>')
    await agent.get('/public/site.css').expect(200, 'body { color: black }').expect('content-type', /^text\/css/)
  })

  it('answers bad uploads with 4xx: no file, a file over the limit (and removes it), a body that is not multipart, a malformed one', async () => {
    const { app, uploads } = await boot()
    const agent = request.agent(app.server)
    await agent.post('/auth/login').send({ user: 'ada', password: 'lovelace' }).expect(200)
    await agent.post('/files').field('note', 'no file here').expect(400, { statusCode: 400, error: 'Bad Request', message: 'a file is required' })
    await agent.post('/files').attach('file', Buffer.alloc(100, 'x'), 'big.bin').expect(413, { statusCode: 413, error: 'Payload Too Large', message: 'the file is too large' })
    expect(await readdir(uploads)).to.deep.equal([])
    const notMultipart = await agent.post('/files').send({ json: true })
    expect(notMultipart.status).to.be.within(400, 499)
    await agent.post('/files').set('content-type', 'multipart/form-data').send('garbage').expect(400)
  })

  it('refuses a state-changing request without the CSRF token, accepts it with the token from the session', async () => {
    const { app } = await boot()
    const agent = request.agent(app.server)
    await agent.post('/auth/login').send({ user: 'ada', password: 'lovelace' }).expect(200)
    await agent.post('/auth/logout').expect(403)
    const { token } = (await agent.get('/auth/csrf').expect(200)).body as { token: string }
    await agent.post('/auth/logout').set('x-csrf-token', 'forged').expect(403)
    await agent.post('/auth/logout').set('x-csrf-token', token).expect(200, { bye: true })
    await agent.post('/files').attach('file', Buffer.from('x'), 'a.txt').expect(401)
  })

  it('sends helmet\'s headers and cors for the allowed origin only, and limits logins per client in Redis (429 with retry-after)', async () => {
    const nameSpace = `express-service-${crypto.randomUUID()}-`
    const { app } = await boot(nameSpace)
    const res = await request(app.server).get('/public/site.css').set('origin', 'https://app.example').expect(200)
    expect(res.headers).to.include({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN', 'access-control-allow-origin': 'https://app.example' })
    const other = await request(app.server).get('/public/site.css').set('origin', 'https://evil.example').expect(200)
    expect(other.headers['access-control-allow-origin']).to.equal(undefined)
    await request(app.server).options('/auth/login').set('origin', 'https://app.example').set('access-control-request-method', 'POST').expect(204)
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await request(app.server).post('/auth/login').send({ user: 'ada', password: 'wrong' })).status)
    expect(statuses).to.deep.equal([401, 401, 401, 429])
    const limited = await request(app.server).post('/auth/login').send({ user: 'ada', password: 'lovelace' }).expect(429)
    expect(limited.headers['retry-after']).to.match(/^\d+$/)
    // The count is in Redis, not in the process: a second app on the same Redis sees it.
    const { app: second } = await boot(nameSpace)
    await request(second.server).post('/auth/login').send({ user: 'ada', password: 'lovelace' }).expect(429)
    // close() quits the Redis client through the factory's dispose.
    await app.close()
  })
})
