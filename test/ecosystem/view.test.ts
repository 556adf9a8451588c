import { expect } from 'chai'
import request from 'supertest'
import ejs from 'ejs'
import view from '@fastify/view'
import { createServer, type Reply, type Request, type Scope } from '../../src/runtime'
import { track } from '../support/servers'
import { affected, fixture, modes, topology, unaffected } from './helpers'

type ViewReply = Reply & { view(page: string, data?: object): Promise<Reply>; viewAsync(page: string, data?: object): Promise<string>; locals: Record<string, unknown> }
type ViewScope = Scope & { view(page: string, data?: object): Promise<string> }

const options = { engine: { ejs }, root: fixture('views'), defaultContext: { site: 'Enclave' } }

/** reply.view() sends the page; `reply.locals` (set by the plugin's onRequest hook) reach the template. */
const probe = async (req: Request, reply: Reply) => {
  const r = reply as Partial<ViewReply>
  if (typeof r.view !== 'function') return { view: false }
  r.locals!.greeting = 'welcome'
  return r.view('index.ejs', { name: (req.query as Record<string, string>).name ?? 'world' })
}

// @fastify/view README with ejs: reply.view(page, data) renders under `root` and sends HTML
// (text/html), merged with `defaultContext` and `reply.locals`; `layout` wraps pages;
// reply.viewAsync() and fastify.view() return the string; a template error is a 500.
describe('@fastify/view (ejs) in Enclave', () => {
  for (const mode of modes) {
    it(`renders pages with reply.view in the registering context and its descendants only (${mode})`, async () => {
      const app = await topology(mode, { plugin: view, options, probe })
      for (const path of affected) {
        const res = await request(app.server).get(`${path}?name=Ada`).expect(200)
        expect(res.headers['content-type']).to.equal('text/html; charset=utf-8')
        expect(res.text.trim()).to.equal('<h1>Hello, Ada!</h1><p>Enclave welcome</p>')
      }
      for (const path of unaffected) await request(app.server).get(path).expect(200, { view: false })
    })
  }

  it('wraps pages in a layout, renders to a string with viewAsync and fastify.view, and answers 500 for a broken template', async () => {
    const app = track(createServer())
    await app.register(view, { ...options, layout: 'layout.ejs' })
    app.get('/page', (_req, reply) => (reply as ViewReply).view('index.ejs', { name: 'Grace', greeting: 'hi' }))
    // viewAsync sets text/html too: the handler answers the string (after its own changes)
    app.get('/string', async (_req, reply) => (await (reply as ViewReply).viewAsync('index.ejs', { name: 'Ada', greeting: 'yo' })).toUpperCase())
    app.get('/broken', (_req, reply) => (reply as ViewReply).view('broken.ejs'))
    await app.ready()
    const page = await request(app.server).get('/page').expect(200)
    expect(page.text.trim()).to.equal('<main><h1>Hello, Grace!</h1><p>Enclave hi</p>\n</main>')
    const upper = await request(app.server).get('/string').expect(200)
    expect(upper.headers['content-type']).to.equal('text/html; charset=utf-8')
    expect(upper.text.trim()).to.equal('<MAIN><H1>HELLO, ADA!</H1><P>ENCLAVE YO</P>\n</MAIN>')
    const rendered = await (app as ViewScope).view('index.ejs', { name: 'Linus', greeting: '' })
    expect(rendered).to.contain('<h1>Hello, Linus!</h1>')
    await request(app.server).get('/broken').expect(500, { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
  })

  it('refuses a missing engine at boot with the plugin\'s error', async () => {
    const app = track(createServer())
    app.register(view, {} as never)
    let error: Error | undefined
    try { await app.ready() } catch (e) { error = e as Error }
    expect(error?.message).to.equal('Missing engine')
  })
})
