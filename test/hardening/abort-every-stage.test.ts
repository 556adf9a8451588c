// Clients that leave while an async hook of any stage (onRequest ... onSend) or the handler holds
// their request, many at once. aborts.test.ts covers leaving mid-body, mid-handler and mid-stream;
// here the request is held at each stage in turn until its socket (over HTTP/2: its stream) is gone. Each request ends in
// exactly one onRequestAbort; once a hook before the handler resolves after the client left, the
// chain stops and the handler never runs (Fastify 3 and 5 run it, for nobody: README "Where Enclave
// deliberately differs"); connections, timers and listeners come back; a request-scoped provider
// built for such a request is released exactly once.
import 'reflect-metadata'
import { connect as http2Connect, constants, type ClientHttp2Session } from 'node:http2'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import { listening, rawClient, sleep } from './helpers'
import { track } from '../support/servers'
import {
  Module, OnRequest, OnSend, Post, PreHandler, PreParsing, PreSerialization, PreValidation, RequestScoped, Route,
  createApp, type Reply, type Request, type Scope,
} from '../../src'

const STAGES = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler', 'preSerialization', 'onSend'] as const
type Stage = typeof STAGES[number]
const BEFORE_HANDLER: readonly Stage[] = ['onRequest', 'preParsing', 'preValidation', 'preHandler']
const BODY = '{"a":1}'

/** The ids of requests now held at their stage (the client's x-id header): that client leaves. */
const held = new Set<string>()

/** Holds `request` at its stage until its client is gone: the socket over HTTP/1.1, the stream over HTTP/2 (bounded: 5 s). */
async function holdUntilGone(request: Request): Promise<void> {
  held.add(String(request.headers['x-id']))
  const stream = (request.raw as unknown as { stream?: { destroyed: boolean; once(event: 'close', listener: () => void): void } }).stream
  const gone = stream ?? request.raw.socket
  if (gone.destroyed) return
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 5_000)
    gone.once('close', () => { clearTimeout(timer); resolve() })
  })
}

const stageOf = (request: Request): string => request.url.split('/')[2] ?? ''

let ids = 0

/** One client per request: sends a JSON POST to /s/<stage>, leaves once it is held there. */
async function leaveAt(address: string, stage: Stage): Promise<void> {
  const client = await rawClient(address)
  const id = String(++ids)
  client.write(`POST /s/${stage} HTTP/1.1\r\nHost: x\r\nX-Id: ${id}\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`)
  for (let i = 0; i < 1_000 && !held.has(id) && !client.isClosed; i++) await sleep(5)
  client.destroy()
  await client.waitClosed()
}

/** The same over one HTTP/2 session: the stream is reset (CANCEL) once it is held. */
async function resetAt(session: ClientHttp2Session, stage: Stage): Promise<void> {
  const id = String(++ids)
  const stream = session.request({ ':method': 'POST', ':path': `/s/${stage}`, 'content-type': 'application/json', 'x-id': id })
  stream.on('error', () => undefined)
  stream.end(BODY)
  for (let i = 0; i < 1_000 && !held.has(id) && !stream.closed; i++) await sleep(5)
  stream.close(constants.NGHTTP2_CANCEL)
  if (!stream.closed) await new Promise<void>((resolve) => stream.once('close', () => resolve()))
}

const timers = (): number => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length

async function settle(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await sleep(10)
}

async function connections(app: Scope): Promise<number> {
  const server = app.server as { getConnections(cb: (error: Error | null, count: number) => void): void }
  return new Promise((resolve, reject) => server.getConnections((error, count) => error === null ? resolve(count) : reject(error)))
}

describe('hardening: clients that leave at every stage of the lifecycle', function () {
  this.timeout(30_000)
  const unhandled: unknown[] = []
  const onUnhandled = (reason: unknown): void => { unhandled.push(reason) }
  before(() => { process.on('unhandledRejection', onUnhandled); process.on('uncaughtException', onUnhandled) })
  after(() => { process.removeListener('unhandledRejection', onUnhandled); process.removeListener('uncaughtException', onUnhandled) })
  beforeEach(() => { unhandled.length = 0; held.clear() })

  /** Routes whose hooks at every stage hold a request sent to /s/<that stage>; counts what ran and how each request ended. */
  function stageRoutes() {
    const ran = new Map<string, number>()
    const ends = new Map<string, string[]>()
    const count = (key: string): void => { ran.set(key, (ran.get(key) ?? 0) + 1) }
    const end = (kind: string) => async (request: Request): Promise<void> => { ends.set(request.id, [...(ends.get(request.id) ?? []), kind]) }
    const declare = (root: Scope): void => {
      for (const stage of STAGES) {
        if (stage === 'handler') continue
        const hold = async (request: Request): Promise<void> => {
          count(`${stageOf(request)} > ${stage}`)
          if (stageOf(request) === stage) await holdUntilGone(request)
        }
        // One call per name: addHook's overloads take a literal hook name, not a union of them.
        if (stage === 'preParsing') root.addHook('preParsing', async (request, _reply, payload) => { await hold(request); return payload })
        else if (stage === 'preSerialization') root.addHook('preSerialization', async (request, _reply, payload) => { await hold(request); return payload })
        else if (stage === 'onSend') root.addHook('onSend', async (request, _reply, payload) => { await hold(request); return payload })
        else if (stage === 'onRequest') root.addHook('onRequest', async (request) => { await hold(request) })
        else if (stage === 'preValidation') root.addHook('preValidation', async (request) => { await hold(request) })
        else root.addHook('preHandler', async (request) => { await hold(request) })
      }
      root.addHook('onResponse', end('response'))
      root.addHook('onRequestAbort', end('abort'))
      root.post('/s/:stage', async (request) => {
        count(`${stageOf(request)} > handler`)
        if (stageOf(request) === 'handler') await holdUntilGone(request)
        return { ok: true }
      })
      root.get('/ok', async () => ({ ok: true }))
    }
    /** Every request ended in one onRequestAbort; `perStage` were held at each stage; nothing ran after a pre-handler stage. */
    const expectAccounted = async (perStage: number): Promise<void> => {
      const total = perStage * STAGES.length
      await settle(() => ends.size === total && [...ends.values()].every((list) => list.length === 1))
      expect(ends.size, 'requests that ended').to.equal(total)
      for (const [id, list] of ends) expect(list, `terminal hooks of ${id}`).to.deep.equal(['abort'])
      for (const stage of STAGES) expect(ran.get(`${stage} > ${stage}`), `requests held at ${stage}`).to.equal(perStage)
      for (const stage of BEFORE_HANDLER) {
        for (const later of STAGES.slice(STAGES.indexOf(stage) + 1)) expect(ran.get(`${stage} > ${later}`) ?? 0, `${later} after the client left at ${stage}`).to.equal(0)
      }
    }
    return { declare, expectAccounted }
  }

  it('20 clients at each of the seven stages at once: one onRequestAbort each, no handler after a hook the client left, connections, timers and listeners back', async () => {
    const routes = stageRoutes()
    const { app, address } = await listening(routes.declare, { handlerTimeout: 10_000 })
    const server = app.server as unknown as { listenerCount(event: string): number }
    const listenersBefore = ['request', 'connection', 'clientError'].map((event) => server.listenerCount(event))
    const timersBefore = timers()

    await Promise.all(STAGES.flatMap((stage) => Array.from({ length: 20 }, () => leaveAt(address, stage))))
    await routes.expectAccounted(20)
    await settle(() => timers() <= timersBefore)
    expect(timers(), 'timers').to.be.at.most(timersBefore)
    expect(await connections(app), 'connections').to.equal(0)
    expect(['request', 'connection', 'clientError'].map((event) => server.listenerCount(event))).to.deep.equal(listenersBefore)
    expect(unhandled).to.deep.equal([])
    const probe = await rawClient(address)
    probe.write('GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    expect((await probe.next()).status).to.equal(200)
  })

  it('over HTTP/2, streams reset (CANCEL) at each stage, 10 per stage in two rounds on one session: the same accounting, and the session\'s stream slots come back (140 > its 100)', async () => {
    const routes = stageRoutes()
    const { address } = await listening(routes.declare, { http2: true, handlerTimeout: 10_000 })
    const session = http2Connect(address)
    session.on('error', () => undefined)
    try {
      for (let round = 0; round < 2; round++) {
        await Promise.all(STAGES.flatMap((stage) => Array.from({ length: 10 }, () => resetAt(session, stage))))
      }
      await routes.expectAccounted(20)
      const status = await new Promise<unknown>((resolve) => {
        const stream = session.request({ ':path': '/ok' })
        stream.on('response', (headers) => resolve(headers[':status']))
        stream.on('error', (error: Error & { code?: string }) => resolve(error.code))
        stream.end()
      })
      expect(status, 'GET /ok on the same session').to.equal(200)
      expect(unhandled).to.deep.equal([])
    } finally {
      session.destroy()
    }
  })

  it('a request-scoped provider injected at every stage is built once per request and released exactly once, whichever stage the client left at', async () => {
    let built = 0
    const released: number[] = []
    const handlers: string[] = []
    @RequestScoped() class Tenant {
      readonly id = ++built
      dispose() { released.push(this.id) }
    }
    const holdAt = (stage: Stage) => async (tenant: Tenant, request: Request): Promise<void> => {
      (request as unknown as { tenants?: Set<number> }).tenants ??= new Set()
      ;(request as unknown as { tenants: Set<number> }).tenants.add(tenant.id)
      if (stageOf(request) === stage) await holdUntilGone(request)
    }
    @injectable() class Guard { constructor(readonly tenant: Tenant) {} async handle(request: Request) { await holdAt('onRequest')(this.tenant, request); return true } }
    @injectable() class Parse { constructor(readonly tenant: Tenant) {} async handle(request: Request, _reply: Reply, payload: unknown) { await holdAt('preParsing')(this.tenant, request); return payload } }
    @injectable() class Check { constructor(readonly tenant: Tenant) {} async handle(request: Request) { await holdAt('preValidation')(this.tenant, request) } }
    @injectable() class Load { constructor(readonly tenant: Tenant) {} async handle(request: Request) { await holdAt('preHandler')(this.tenant, request) } }
    @injectable() class Wrap { constructor(readonly tenant: Tenant) {} async handle(request: Request, _reply: Reply, payload: unknown) { await holdAt('preSerialization')(this.tenant, request); return payload } }
    @injectable() class Stamp { constructor(readonly tenant: Tenant) {} async handle(request: Request, _reply: Reply, payload: unknown) { await holdAt('onSend')(this.tenant, request); return payload } }
    @Route() @OnRequest(Guard) @PreParsing(Parse) @PreValidation(Check) @PreHandler(Load) @PreSerialization(Wrap) @OnSend(Stamp)
    class C {
      constructor(readonly tenant: Tenant) {}
      @Post('/s/:stage') async post(request: Request) {
        handlers.push(stageOf(request))
        await holdAt('handler')(this.tenant, request)
        return { ok: true }
      }
    }
    @Module({ providers: [Tenant, Guard, Parse, Check, Load, Wrap, Stamp], controllers: [C] }) class Root {}
    const app = track(await createApp(Root))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })

    await Promise.all(STAGES.flatMap((stage) => Array.from({ length: 10 }, () => leaveAt(address, stage))))
    await settle(() => released.length >= built && built >= 70)

    expect(built, 'one Tenant per request').to.equal(70)
    expect([...released].sort((a, b) => a - b), 'each released once').to.deep.equal(Array.from({ length: 70 }, (_, i) => i + 1))
    for (const stage of BEFORE_HANDLER) expect(handlers.filter((s) => s === stage), `handlers run after the client left at ${stage}`).to.deep.equal([])
    expect(await connections(app), 'connections').to.equal(0)
    expect(unhandled).to.deep.equal([])
  })
})
