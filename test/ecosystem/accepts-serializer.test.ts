// @fastify/accepts-serializer 6 (its README: `serializers` of `{ regex, serializer }`, a `default` type, per-route
// serializers in `config.serializers`): the reply's format follows the Accept header. Its preHandler hook sets
// `reply.serializer(fn)` and the type, and answers 406 "Allowed: ..." for a type it cannot write; compared with
// Fastify 5 running the same plugin, on the runtime API and in a module.
import 'reflect-metadata'
import { expect } from 'chai'
import acceptsSerializer from '@fastify/accepts-serializer'
import fastify5 from 'fastify5'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { bootError, declaredOnBoth, track } from '../support/servers'

/** A tiny YAML writer for flat objects: enough to tell the serializer that ran. */
const yaml = (body: Record<string, unknown>): string => Object.entries(body).map(([k, v]) => `${k}: ${String(v)}`).join('\n') + '\n'
const csv = (body: { rows: Array<Record<string, unknown>> }): string => body.rows.map((row) => Object.values(row).join(',')).join('\n') + '\n'

const options = { serializers: [{ regex: /^application\/yaml$/, serializer: yaml }] }
const perRoute = { serializers: [{ regex: /^text\/csv$/, serializer: csv }] }

interface Declarer { register: Function; get: Function }
function declareCatalog(app: Declarer): void {
  app.register(async (shop: Declarer) => {
    shop.register(acceptsSerializer, options)
    shop.get('/item', async () => ({ id: 7, name: 'lamp' }))
    shop.get('/report', { config: perRoute }, async () => ({ rows: [{ id: 1, name: 'lamp' }, { id: 2, name: 'desk' }] }))
  })
  app.register(async (sibling: Declarer) => {
    sibling.register(acceptsSerializer, { ...options, default: 'application/yaml' })
    sibling.get('/item', async () => ({ id: 8, name: 'chair' }))
  }, { prefix: '/defaulted' })
}

const cases: Array<[url: string, accept: string | undefined]> = [
  ['/item', 'application/yaml'],
  ['/item', 'application/json'],
  ['/item', 'text/html, application/yaml;q=0.5'],
  ['/item', 'text/html'],                           // no serializer, no default: 406
  ['/item', undefined],
  ['/report', 'text/csv'],
  ['/report', 'application/yaml'],                  // the route's serializers extend the global ones
  ['/report', 'application/xml'],
  ['/defaulted/item', 'text/html'],                 // the default type when nothing matches
  ['/defaulted/item', 'application/json'],
]

interface Answer { statusCode: number; headers: Record<string, unknown>; body: string; json(): Record<string, unknown> }

describe('@fastify/accepts-serializer in Enclave', () => {
  it('writes the reply in the type the Accept header asks for, per route and with a default, and 406s a type it cannot write: as Fastify 5 answers', async () => {
    const { app, reference } = declaredOnBoth(declareCatalog, fastify5())
    try {
      for (const [url, accept] of cases) {
        const headers: Record<string, string> = accept === undefined ? {} : { accept }
        const ours = await app.inject({ url, headers })
        const theirs = await reference.inject({ url, headers })
        const seen = (r: Answer) => ({ status: r.statusCode, type: r.headers['content-type'], body: r.statusCode === 406 ? { ...r.json(), code: undefined } : r.body })
        expect(seen(ours), `${url} ${accept}`).to.deep.equal(seen(theirs))
      }
      const yamlReply = await app.inject({ url: '/item', headers: { accept: 'application/yaml' } })
      expect([yamlReply.headers['content-type'], yamlReply.body]).to.deep.equal(['application/yaml', 'id: 7\nname: lamp\n'])
      const refused = await app.inject({ url: '/item', headers: { accept: 'text/html' } })
      expect(refused.json()).to.deep.equal({ statusCode: 406, error: 'Not Acceptable', message: 'Allowed: /^application\\/yaml$/,application/json' })
      expect((await app.inject({ url: '/report', headers: { accept: 'text/csv' } })).body).to.equal('1,lamp\n2,desk\n')
    } finally { await reference.close() }
  })

  it('registered again below a scope that has it (for other options) fails boot with ENC_ERR_DEC_ALREADY_PRESENT, where Fastify 5 lets the child\'s @fastify/accepts shadow the parent\'s (README differences: "A child scope may not re-declare a decorator its ancestors have")', async () => {
    const twice = (app: Declarer) => {
      app.register(acceptsSerializer, options)
      app.register(async (child: Declarer) => { child.register(acceptsSerializer, { ...options, default: 'application/yaml' }) })
    }
    const { app, reference } = declaredOnBoth(twice, fastify5())
    try {
      await reference.ready()
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_DEC_ALREADY_PRESENT')
      expect(error.message).to.include("decorateRequest('accepts')").and.include('register it once')
    } finally { await reference.close() }
  })

  it('acts in the module that lists it and its routes only: a sibling module answers JSON whatever the Accept header', async () => {
    @Route('/catalog')
    class CatalogController {
      @Get('/item') item() { return { id: 7, name: 'lamp' } }
      @Get('/report', { config: perRoute }) report() { return { rows: [{ id: 1, name: 'lamp' }] } }
    }
    @Module({ plugins: [[acceptsSerializer, { ...options, default: 'application/yaml' }]], controllers: [CatalogController] })
    class CatalogModule {}
    @Route('/plain')
    class PlainController {
      @Get('/item') item() { return { id: 1 } }
    }
    @Module({ controllers: [PlainController] })
    class PlainModule {}
    @Module({ plugins: [CatalogModule, PlainModule] })
    class AppModule {}
    const app = track(await createApp(AppModule))
    const yamlReply = await app.inject({ url: '/catalog/item', headers: { accept: 'application/yaml' } })
    expect([yamlReply.statusCode, yamlReply.headers['content-type'], yamlReply.body]).to.deep.equal([200, 'application/yaml', 'id: 7\nname: lamp\n'])
    const csvReply = await app.inject({ url: '/catalog/report', headers: { accept: 'text/csv' } })
    expect([csvReply.headers['content-type'], csvReply.body]).to.deep.equal(['text/csv', '1,lamp\n'])
    const defaulted = await app.inject({ url: '/catalog/item', headers: { accept: 'text/html' } })
    expect([defaulted.statusCode, defaulted.headers['content-type']]).to.deep.equal([200, 'application/yaml'])
    const plain = await app.inject({ url: '/plain/item', headers: { accept: 'application/yaml' } })
    expect([plain.statusCode, plain.headers['content-type'], plain.body]).to.deep.equal([200, 'application/json; charset=utf-8', '{"id":1}'])
  })
})
