// The content API of docs/recipes-content-api.md over real HTTP on a real PostgreSQL (started by this
// file on a free loopback port, stopped by pid), with @fastify/compress, @fastify/etag, @fastify/jwt
// and @fastify/accepts from npm. Each test is one promise of the recipe, checked against RFC 9110
// (conditional requests, section 13; 304, section 15.4.5; negotiation, section 12) and RFC 9111
// (Cache-Control). The CDN purge is replaced through createApp's `overrides`.
import 'reflect-metadata'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import { expect } from 'chai'
import request from 'supertest'
import { SignJWT } from 'jose'
import { Validator } from '@seriousme/openapi-schema-validator'
import { createApp, override, type App } from '../../src'
import { startPostgres, stopPostgres, untilOnlyConnection, type Postgres } from './postgres/processes'
import { appOptions, contentModule } from './content-api/app-module'
import { CdnPurger } from './content-api/cdn'
import { seed } from './content-api/seed'

const SECRET = 'content-api-test-secret'
async function bearer(role: string): Promise<string> {
  return `Bearer ${await new SignJWT({ role }).setProtectedHeader({ alg: 'HS256' }).setSubject('someone').sign(new TextEncoder().encode(SECRET))}`
}

class FakeCdn {
  purged: string[][] = []
  failNext = false
  async purge(paths: string[]): Promise<void> {
    if (this.failNext) { this.failNext = false; throw new Error('CDN purge answered 503') }
    this.purged.push(paths)
  }
}

const PUBLIC_CACHE = 'public, max-age=60, s-maxage=600, stale-while-revalidate=300'
/** One request over node:http, the body as the bytes sent (supertest would gunzip it). */
function raw(app: App, method: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  const { port } = app.server.address() as AddressInfo
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('a content API with HTTP caching (docs/recipes-content-api.md) on a real PostgreSQL', function () {
  this.timeout(60_000)
  let pg: Postgres | undefined
  let app: App
  let cdn: FakeCdn
  let editor: string, reader: string

  before(async function () {
    this.timeout(120_000)
    pg = await startPostgres()
    cdn = new FakeCdn()
    app = await createApp(contentModule({ databaseUrl: pg.url, jwtSecret: SECRET, cdnPurgeUrl: 'http://127.0.0.1:1/purge', cdnToken: 't' }), {
      ...appOptions, overrides: [override(CdnPurger, { useValue: cdn })],
    })
    await seed(pg.url)
    await app.listen({ port: 0, host: '127.0.0.1' })   // raw() below asks the listening server itself
    ;[editor, reader] = await Promise.all([bearer('editor'), bearer('reader')])
  })

  after(async () => {
    await app?.close()
    if (pg !== undefined) await untilOnlyConnection(pg.url)
    await stopPostgres(pg)
  })

  it('serves an OpenAPI document the validator accepts, with the cache headers, 304, 301 and the three media types of an article', async () => {
    const doc = (await request(app.server).get('/openapi.json').expect(200)).body
    const result = await new Validator().validate(doc)
    expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined)
    const get = doc.paths['/articles/{slug}'].get
    expect(Object.keys(get.responses['200'].content)).to.deep.equal(['application/json', 'text/html', 'text/markdown'])
    expect(Object.keys(get.responses['200'].headers)).to.include.members(['etag', 'last-modified', 'cache-control', 'vary'])
    expect(get.responses['304']).to.have.property('headers').that.has.property('etag')
    expect(get.responses['304']).not.to.have.property('content')
    expect(get.responses['301'].headers).to.have.property('location')
    expect(get.responses).to.have.property('406')
    expect(doc.paths['/articles'].get.responses['200'].headers).to.have.property('link')
    const put = doc.paths['/articles/{slug}'].put
    expect(Object.keys(put.responses)).to.include.members(['200', '308', '412', '428'])
    expect(put.parameters.map((p: { name: string }) => p.name)).to.include.members(['if-match', 'if-unmodified-since'])
  })

  it('answers an article with a strong ETag, Last-Modified, Cache-Control for browsers and CDNs, Vary and Content-Language', async () => {
    const res = await request(app.server).get('/articles/story-2').expect(200)
    expect(res.headers.etag).to.match(/^"a\d+-v1-en-0"$/)
    expect(res.headers['last-modified']).to.equal('Fri, 02 Jan 2026 10:00:00 GMT')
    expect(res.headers['cache-control']).to.equal(PUBLIC_CACHE)
    expect(res.headers.vary).to.equal('accept, accept-encoding, accept-language')
    expect(res.headers['content-language']).to.equal('en')
    expect(res.body).to.include({ slug: 'story-2', title: 'Story 2', author: 'Ada L', version: 1 })
  })

  it('answers HEAD on every GET with the same headers and no body, compressed or not (exposeHeadRoutes)', async () => {
    for (const encoding of ['identity', 'gzip']) {
      for (const url of ['/articles/story-2', '/articles?limit=2']) {
        const get = await raw(app, 'GET', url, { 'accept-encoding': encoding })
        const head = await raw(app, 'HEAD', url, { 'accept-encoding': encoding })
        expect([get.status, head.status]).to.deep.equal([200, 200])
        for (const name of ['etag', 'last-modified', 'cache-control', 'vary', 'content-type', 'content-length', 'content-encoding', 'link', 'content-language']) {
          expect(head.headers[name], `${url} ${encoding} ${name}`).to.equal(get.headers[name])
        }
        expect(get.headers['content-encoding']).to.equal(encoding === 'gzip' ? 'gzip' : undefined)
        expect(head.body.length).to.equal(0)
      }
    }
  })

  it('answers 304 to If-None-Match (a list, a weak form, *) with no body and the validators and cache headers kept', async () => {
    const { headers } = await request(app.server).get('/articles/story-3').expect(200)
    for (const ifNoneMatch of [headers.etag, `"other", ${headers.etag}`, `W/${headers.etag}`, '*']) {
      const res = await request(app.server).get('/articles/story-3').set('if-none-match', ifNoneMatch).expect(304)
      expect(res.text ?? '').to.equal('')
      expect(res.headers).to.include({ etag: headers.etag, 'last-modified': headers['last-modified'], 'cache-control': PUBLIC_CACHE, vary: headers.vary })
      expect(res.headers).not.to.have.property('content-type')
      expect(res.headers).not.to.have.property('content-length')
    }
    await request(app.server).head('/articles/story-3').set('if-none-match', headers.etag).expect(304)
    await request(app.server).get('/articles/story-3').set('if-none-match', '"a3-v0-en-0"').expect(200)
  })

  it('answers 304 to If-Modified-Since at or after Last-Modified, and lets If-None-Match decide when both are sent (RFC 9110 13.1.3)', async () => {
    await request(app.server).get('/articles/story-3').set('if-modified-since', 'Sat, 03 Jan 2026 10:00:00 GMT').expect(304)
    await request(app.server).get('/articles/story-3').set('if-modified-since', 'Sun, 04 Jan 2026 10:00:00 GMT').expect(304)
    await request(app.server).get('/articles/story-3').set('if-modified-since', 'Sat, 03 Jan 2026 09:59:59 GMT').expect(200)
    await request(app.server).get('/articles/story-3').set('if-modified-since', 'not a date').expect(200)
    await request(app.server).get('/articles/story-3').set('if-modified-since', 'Sun, 04 Jan 2026 10:00:00 GMT').set('if-none-match', '"stale"').expect(200)
  })

  it('negotiates JSON, HTML or markdown by Accept (each its own ETag) and answers 406 naming the types when none fits', async () => {
    const html = await request(app.server).get('/articles/story-2').set('accept', 'text/html,application/xhtml+xml;q=0.9').expect(200)
    expect(html.headers['content-type']).to.equal('text/html; charset=utf-8')
    expect(html.text).to.match(/^<!doctype html><html lang="en"><title>Story 2<\/title>/)
    const markdown = await request(app.server).get('/articles/story-2').set('accept', 'text/markdown').expect(200)
    expect(markdown.headers['content-type']).to.equal('text/markdown; charset=utf-8')
    expect(markdown.text).to.match(/^# Story 2\n\n/)
    const json = await request(app.server).get('/articles/story-2').set('accept', '*/*').expect(200)
    expect(json.headers['content-type']).to.equal('application/json; charset=utf-8')
    expect(new Set([html.headers.etag, markdown.headers.etag, json.headers.etag]).size).to.equal(3)
    const refused = await request(app.server).get('/articles/story-2').set('accept', 'image/png').expect(406)
    expect(refused.body).to.deep.equal({ statusCode: 406, code: 'ARTICLE_NOT_ACCEPTABLE', error: 'Not Acceptable', message: 'Not Acceptable: this resource is available as application/json, text/html, text/markdown' })
  })

  it('localises by Accept-Language with an English fallback, in the body, Content-Language and the ETag', async () => {
    const fr = await request(app.server).get('/articles/story-1').set('accept-language', 'fr-CH, fr;q=0.9, en;q=0.5').expect(200)
    expect(fr.body).to.include({ title: 'Histoire 1', lang: 'fr' })
    expect(fr.headers['content-language']).to.equal('fr')
    const de = await request(app.server).get('/articles/story-1').set('accept-language', 'de').expect(200)
    expect(de.body).to.include({ title: 'Story 1', lang: 'en' })
    expect(de.headers['content-language']).to.equal('en')
    expect(fr.headers.etag).not.to.equal(de.headers.etag)
    const list = await request(app.server).get('/articles?sort=publishedAt&limit=1').set('accept-language', 'fr').expect(200)
    expect(list.body.items[0]).to.include({ slug: 'story-1', title: 'Histoire 1' })
  })

  it('compresses with gzip above the threshold: the same ETag and JSON, Vary naming accept-encoding once, 304 to a gzip client too', async () => {
    const plain = await request(app.server).get('/articles/story-4').set('accept-encoding', 'identity').expect(200)
    const gzip = await raw(app, 'GET', '/articles/story-4', { 'accept-encoding': 'gzip' })
    expect(gzip.status).to.equal(200)
    expect(gzip.headers['content-encoding']).to.equal('gzip')
    expect(Number(gzip.headers['content-length'])).to.equal(gzip.body.length).and.to.be.below(Number(plain.headers['content-length']))
    expect(JSON.parse(gunzipSync(gzip.body).toString())).to.deep.equal(plain.body)
    expect(gzip.headers.etag).to.equal(plain.headers.etag)
    expect(gzip.headers.vary).to.equal('accept, accept-encoding, accept-language')
    await request(app.server).get('/articles/story-4').set('accept-encoding', 'gzip').set('if-none-match', plain.headers.etag).expect(304)
  })

  it('pages the list with opaque cursors and a Link rel="next" that reaches every published article once', async () => {
    const seen: string[] = []
    let url: string | null = '/articles?limit=4'
    for (let page = 0; url !== null && page < 10; page++) {
      const res: request.Response = await request(app.server).get(url).expect(200)
      expect(res.headers['cache-control']).to.equal(PUBLIC_CACHE)
      seen.push(...res.body.items.map((item: { slug: string }) => item.slug))
      const link = res.headers.link as string | undefined
      expect(link === undefined).to.equal(res.body.nextCursor === null)
      url = link === undefined ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1]!
    }
    expect(seen).to.deep.equal(['story-11', 'story-10', 'story-9', 'story-8', 'story-7', 'story-6', 'story-5', 'story-4', 'story-3', 'story-2', 'story-1'])
  })

  it('filters and sorts from the query string: one or many tags, an enum sort with a default, bounded limits, coded 400s', async () => {
    const one = await request(app.server).get('/articles?tag=politics&limit=50').expect(200)
    expect(one.body.items.map((i: { slug: string }) => i.slug)).to.deep.equal(['story-9', 'story-6', 'story-3'])
    const two = await request(app.server).get('/articles?tag=politics&tag=tech&limit=50').expect(200)
    expect(two.body.items).to.have.length(11)
    const bySlug = await request(app.server).get('/articles?sort=slug&limit=2').expect(200)
    expect(bySlug.body.items.map((i: { slug: string }) => i.slug)).to.deep.equal(['story-1', 'story-10'])
    const next = await request(app.server).get(`/articles?sort=slug&limit=2&cursor=${bySlug.body.nextCursor}`).expect(200)
    expect(next.body.items.map((i: { slug: string }) => i.slug)).to.deep.equal(['story-11', 'story-2'])
    expect((await request(app.server).get('/articles?sort=popular').expect(400)).body.message).to.equal('querystring/sort should be equal to one of the allowed values')
    expect((await request(app.server).get('/articles?limit=51').expect(400)).body.message).to.equal('querystring/limit should be <= 50')
    expect((await request(app.server).get('/articles?colour=red').expect(400)).body.message).to.equal('querystring should NOT have additional properties')
    expect((await request(app.server).get('/articles?cursor=bm9wZQ').expect(400)).body.code).to.equal('ARTICLES_INVALID_CURSOR')
    expect((await request(app.server).get(`/articles?sort=publishedAt&cursor=${bySlug.body.nextCursor}`).expect(400)).body.code).to.equal('ARTICLES_INVALID_CURSOR')
  })

  it('gives the list a weak ETag from @fastify/etag and answers its exact If-None-Match with 304', async () => {
    const first = await request(app.server).get('/articles?limit=3').expect(200)
    expect(first.headers.etag).to.match(/^W\/"/)
    const again = await request(app.server).get('/articles?limit=3').set('if-none-match', first.headers.etag).expect(304)
    expect(again.headers.etag).to.equal(first.headers.etag)
    expect(again.text ?? '').to.equal('')
  })

  it('redirects a moved slug: 301 for GET and HEAD (cacheable), 308 for PUT so the method and body are kept', async () => {
    const get = await request(app.server).get('/articles/old-story-1').expect(301)
    expect(get.headers.location).to.equal('/articles/story-1')
    expect(get.headers['cache-control']).to.equal(PUBLIC_CACHE)
    expect((await request(app.server).head('/articles/old-story-1').expect(301)).headers.location).to.equal('/articles/story-1')
    const put = await request(app.server).put('/articles/old-story-1').set('authorization', editor).set('if-match', '"x"').send({ title: 't', body: 'b' }).expect(308)
    expect(put.headers.location).to.equal('/articles/story-1')
    await request(app.server).get('/articles/no-such-story').expect(404)
  })

  it('refuses a PUT without a precondition (428) or with a stale one (412, with the current ETag), and takes a current If-Match', async () => {
    const current = await request(app.server).get('/articles/story-5').expect(200)
    const missing = await request(app.server).put('/articles/story-5').set('authorization', editor).send({ title: 'New', body: 'B' }).expect(428)
    expect(missing.body.code).to.equal('ARTICLE_PRECONDITION_REQUIRED')
    const stale = await request(app.server).put('/articles/story-5').set('authorization', editor).set('if-match', '"a5-v0-en-0"').send({ title: 'New', body: 'B' }).expect(412)
    expect(stale.body.code).to.equal('ARTICLE_PRECONDITION_FAILED')
    expect(stale.headers.etag).to.equal(current.headers.etag)
    // If-Match compares strongly (RFC 9110 13.1.1): the weak form of the right tag does not match.
    await request(app.server).put('/articles/story-5').set('authorization', editor).set('if-match', `W/${current.headers.etag}`).send({ title: 'New', body: 'B' }).expect(412)
    const done = await request(app.server).put('/articles/story-5').set('authorization', editor).set('if-match', current.headers.etag).send({ title: 'New', body: 'B' }).expect(200)
    expect(done.body).to.include({ title: 'New', version: 2 })
    expect(done.headers.etag).to.not.equal(current.headers.etag)
    expect(done.headers['cache-control']).to.equal('no-store')
    await request(app.server).put('/articles/story-5').set('authorization', editor).set('if-match', current.headers.etag).send({ title: 'Lost', body: 'B' }).expect(412)
    const after = await request(app.server).get('/articles/story-5').set('if-none-match', current.headers.etag).expect(200)
    expect(after.body.title).to.equal('New')
    expect(after.headers.etag).to.equal(done.headers.etag)
    expect(after.headers['last-modified']).to.equal(done.headers['last-modified'])
  })

  it('lets one of two editors holding the same ETag win (the other gets 412), and takes If-Unmodified-Since', async () => {
    const { headers } = await request(app.server).get('/articles/story-6').expect(200)
    const both = await Promise.all([1, 2].map((n) => request(app.server).put('/articles/story-6').set('authorization', editor).set('if-match', headers.etag).send({ title: `Edit ${n}`, body: 'B' })))
    expect(both.map((r) => r.status).sort()).to.deep.equal([200, 412])
    const latest = await request(app.server).get('/articles/story-6').expect(200)
    await request(app.server).put('/articles/story-6').set('authorization', editor).set('if-unmodified-since', 'Sat, 06 Jan 2026 10:00:00 GMT').send({ title: 'Old', body: 'B' }).expect(412)
    await request(app.server).put('/articles/story-6').set('authorization', editor).set('if-unmodified-since', latest.headers['last-modified']).send({ title: 'Fresh', body: 'B' }).expect(200)
  })

  it('purges the article and the list at the CDN after an edit, and keeps the edit when the purge fails (copies expire by max-age)', async () => {
    cdn.purged = []
    let { headers } = await request(app.server).get('/articles/story-7').expect(200)
    await request(app.server).put('/articles/story-7').set('authorization', editor).set('if-match', headers.etag).send({ title: 'Purged', body: 'B' }).expect(200)
    expect(cdn.purged).to.deep.equal([['/articles/story-7', '/articles']])
    ;({ headers } = await request(app.server).get('/articles/story-7').expect(200))
    cdn.failNext = true
    await request(app.server).put('/articles/story-7').set('authorization', editor).set('if-match', headers.etag).send({ title: 'Still saved', body: 'B' }).expect(200)
    expect((await request(app.server).get('/articles/story-7').expect(200)).body.title).to.equal('Still saved')
  })

  it('keeps edits and drafts behind a JWT: 401 without a token, 403 for another role, drafts previewed private and never public', async () => {
    expect((await request(app.server).put('/articles/story-8').send({ title: 't', body: 'b' }).expect(401)).body.code).to.equal('FST_JWT_NO_AUTHORIZATION_IN_HEADER')
    await request(app.server).put('/articles/story-8').set('authorization', reader).set('if-match', '"x"').send({ title: 't', body: 'b' }).expect(403)
    await request(app.server).get('/articles/story-12').expect(404)
    await request(app.server).get('/preview/articles/story-12').expect(401)
    await request(app.server).get('/preview/articles/story-12').set('authorization', reader).expect(403)
    const draft = await request(app.server).get('/preview/articles/story-12').set('authorization', editor).expect(200)
    expect(draft.body).to.include({ slug: 'story-12', title: 'Story 12' })
    expect(draft.headers['cache-control']).to.equal('private, no-store')
  })
})
