// ReDoS through a route path's regex parameters (`/:id(^\d+$)`), which the router runs on the URL's
// segment before any hook. Two defences (docs/errors.md, ENC_WARN_ROUTE_REGEX_REDOS): the regex never
// sees a segment longer than its parameters × maxParamLength plus the segment's own text (Enclave
// had given find-my-way no maxParamLength, so a regex ran on the whole ~16 KB a request head holds:
// a quadratic `^\d+\.?\d*$` cost 0.34 s of CPU per request), and a regex that backtracks badly even
// within that bound is a warning at boot.
import { expect } from 'chai'
import { expectErrorShape, listening, rawRequest, server } from './helpers'
import type { Scope } from '../../src/runtime'
import { bootWarnings } from '../support/servers'
import FindMyWay from 'find-my-way'
import { boundRegexParams, regexParamsOf, segmentRegexesOf } from '../../src/runtime/serve/regex-param-bound'

const code = 'ENC_WARN_ROUTE_REGEX_REDOS'

async function regexWarnings(declare: (app: Scope) => void): Promise<Array<Record<string, unknown>>> {
  return (await bootWarnings(declare)).filter((warning) => warning.code === code)
}

function regexServer(maxParamLength?: number): Scope {
  const app = server(maxParamLength === undefined ? {} : { maxParamLength })
  app.get('/re/:id(^\\d+$)', async (request) => request.params)
  app.get('/two/:a(^\\d+)-:b(^\\w+$)', async (request) => request.params)
  app.get('/mix/:name-:id(^\\d+$)/x', async (request) => request.params)
  app.get('/hour/:h(^\\d{2})h:m(^\\d{2})m', async (request) => request.params)
  return app
}

describe('hardening: regex parameters in route paths', () => {
  describe('the regex never sees more than its segment\'s share of maxParamLength (§8)', () => {
    it('/re/:id(^\\d+$): 100 digits 200, 110 (the bound: 100 + the segment\'s 10 characters) 414 as the regex matched, 111 and 16,000 digits 404: the regex was not run', async () => {
      const app = regexServer()
      expect((await app.inject({ url: `/re/${'1'.repeat(100)}` })).statusCode).to.equal(200)
      const matched = await app.inject({ url: `/re/${'1'.repeat(110)}` })
      expect(expectErrorShape(matched.body, 414)).to.include({ code: 'ENC_ERR_PARAM_TOO_LONG' })
      for (const length of [111, 16_000]) {
        const res = await app.inject({ url: `/re/${'1'.repeat(length)}` })
        expect([res.statusCode, (res.json() as { error: string }).error], `${length} digits`).to.deep.equal([404, 'Not Found'])
      }
    })

    it('a regex with alternatives (^a|\\d+\\.?\\d*$) is bounded on every branch, not only the first: 100 digits 200, 118 a 414, 119 and 16,000 digits 404', async () => {
      const app = server()
      app.get('/alt/:id(^a|\\d+\\.?\\d*$)', async (request) => request.params)
      expect((await app.inject({ url: '/alt/a' })).json()).to.deep.equal({ id: 'a' })
      expect((await app.inject({ url: '/alt/12.5' })).json()).to.deep.equal({ id: '12.5' })
      expect((await app.inject({ url: `/alt/${'1'.repeat(100)}` })).statusCode).to.equal(200)
      // The segment ':id(^a|\\d+\\.?\\d*$)' is 17 characters: 100 + 18 = 118 is the most the regex sees.
      expect((await app.inject({ url: `/alt/${'1'.repeat(118)}` })).statusCode).to.equal(414)
      for (const length of [119, 16_000]) {
        expect((await app.inject({ url: `/alt/${'1'.repeat(length)}` })).statusCode, `${length} digits`).to.equal(404)
      }
    })

    it('over a socket too: a 16,000-digit segment (the most a request head holds) is a well-formed 404 and the server goes on answering', async () => {
      const { address } = await listening((app) => { app.get('/n/:n(^\\d+$)', async (request) => request.params) })
      const res = await rawRequest(address, `GET /n/${'1'.repeat(16_000)}x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
      expect(res.status).to.equal(404)
      expect(JSON.parse(res.body)).to.include({ statusCode: 404, error: 'Not Found' })
      const next = await rawRequest(address, 'GET /n/15 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      expect([next.status, JSON.parse(next.body)]).to.deep.equal([200, { n: '15' }])
    })

    it('the bound counts every parameter of the segment and follows the maxParamLength option', async () => {
      const app = regexServer(10)
      // Two parameters, the segment ':a(^\\d+)-:b(^\\w+$)' 18 characters: 2 × 10 + 18 = 38.
      expect((await app.inject({ url: `/two/${'1'.repeat(10)}-${'b'.repeat(10)}` })).json()).to.deep.equal({ a: '1'.repeat(10), b: 'b'.repeat(10) })
      expect((await app.inject({ url: `/two/${'1'.repeat(20)}-${'b'.repeat(17)}` })).statusCode).to.equal(414)
      expect((await app.inject({ url: `/two/${'1'.repeat(20)}-${'b'.repeat(18)}` })).statusCode).to.equal(404)
      expect((await app.inject({ url: `/re/${'1'.repeat(20)}` })).statusCode).to.equal(414)
      expect((await app.inject({ url: `/re/${'1'.repeat(21)}` })).statusCode).to.equal(404)
    })

    it('regex routes answer as before: several parameters in a segment, a plain parameter before a regex one, HEAD, hasRoute by the path as written', async () => {
      const app = regexServer()
      expect((await app.inject({ url: '/two/12-ab' })).json()).to.deep.equal({ a: '12', b: 'ab' })
      expect((await app.inject({ url: '/mix/name-5/x' })).json()).to.deep.equal({ name: 'name', id: '5' })
      expect((await app.inject({ url: '/mix/name-x/x' })).statusCode).to.equal(404)
      expect((await app.inject({ url: '/hour/12h30m' })).json()).to.deep.equal({ h: '12', m: '30' })
      expect((await app.inject({ method: 'HEAD', url: '/re/12' })).statusCode).to.equal(200)
      expect((await app.inject({ url: '/re/ab' })).statusCode).to.equal(404)
      await app.ready()
      expect(app.hasRoute({ method: 'GET', url: '/re/:id(^\\d+$)' })).to.equal(true)
      expect(app.printRoutes()).to.include(':id(^\\d+$)').and.not.include('?!')
    })

    it('a regex find-my-way refuses is refused at boot quoting it as the route wrote it', async () => {
      const app = server()
      app.get('/bad/:x(^(a+)+$)', async () => ({}))
      const error = await app.ready().then(() => null, (e: Error & { code?: string }) => e)
      expect(error?.code).to.equal('ENC_ERR_ROUTE_INVALID')
      expect(error?.message).to.include("The regex '(^(a+)+$)' is not safe").and.not.include('?!')
    })

    it('boundRegexParams: a lookahead before the whole of each segment\'s first regex parameter (its alternatives grouped), between its ^ and $; other segments, escaped colons and (?:...) groups as written', () => {
      expect(boundRegexParams('/a/:id(^\\d+$)/b', 100)).to.equal('/a/:id(^(?![\\s\\S]{111})(?:\\d+)$)/b')
      expect(boundRegexParams('/:a-:b(\\d+)', 100)).to.equal('/:a-:b((?![\\s\\S]{211})(?:\\d+))')
      expect(boundRegexParams('/x::y/:p/:q(a)/:r(b)', 5)).to.equal('/x::y/:p/:q((?![\\s\\S]{11})(?:a))/:r((?![\\s\\S]{11})(?:b))')
      expect(boundRegexParams('/alt/:id(^a|\\d+$)', 100)).to.equal('/alt/:id(^(?![\\s\\S]{113})(?:a|\\d+)$)')
      expect(boundRegexParams('/s/:id(?:a)', 100)).to.equal('/s/:id(?:a)')
      expect(boundRegexParams('/plain/:id', 100)).to.equal('/plain/:id')
      expect(regexParamsOf('/a/:id(^(\\d)+\\)$)-:b/:c((x))')).to.deep.equal([
        { param: ':id(^(\\d)+\\)$)', source: '^(\\d)+\\)$' }, { param: ':c((x))', source: '(x)' },
      ])
    })
  })

  describe('ENC_WARN_ROUTE_REGEX_REDOS at boot', () => {
    it('overlapping alternatives under a quantifier and meeting quantifiers warn, naming the route, its scope and each parameter', async () => {
      const warnings = await regexWarnings((app) => {
        app.get('/a/:id(^(a|aa)+$)', async () => ({}))
        app.register(async (child) => {
          child.route({ method: ['GET', 'POST'], url: '/b/:x(^\\w+\\w+\\w+x$)/:ok(^\\d+$)', handler: async () => ({}) })
        }, { prefix: '/p' })
      })
      expect(warnings.map((w) => [w.route, w.at])).to.deep.equal([
        ['GET /a/:id(^(a|aa)+$)', [':id(^(a|aa)+$)']],
        ['GET,POST /p/b/:x(^\\w+\\w+\\w+x$)/:ok(^\\d+$)', [':x(^\\w+\\w+\\w+x$)']],
      ])
      expect(warnings[0]).to.include({ scope: 'root' })
      expect(String(warnings[0].msg)).to.match(/Rewrite it/).and.match(/params schema/)
    })

    it('common regex parameters do not warn: digits, fixed counts, a file name with its extension, alternatives that cannot overlap', async () => {
      const warnings = await regexWarnings((app) => {
        app.get('/a/:id(^\\d+$)', async () => ({}))
        app.get('/b/:h(^\\d{2})h:m(^\\d{2})m', async () => ({}))
        app.get('/c/:file(^[a-z0-9_-]+\\.(?:png|jpe?g)$)', async () => ({}))
        app.get('/d/:v(^(?:v1|v2|beta)$)', async () => ({}))
        app.get('/e/:oid(^[0-9a-f]{24}$)', async () => ({}))
        app.get('/f/:uuid(^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$)', async () => ({}))
        app.get('/g/:name.:ext', async () => ({}))
      })
      expect(warnings).to.deep.equal([])
    })

    it('the parameters of one segment are judged together, as the router runs them (one regex): four ^\\w+ in a row warn, named by the segment; separated by a character neither takes they do not', async () => {
      // Each ^\w+ is linear alone; joined as ^(\w+)(\w+)(\w+)(\w+)$ a 301-character segment
      // (within the bound of 4 × 100 + 36) cost 1.5 s of CPU before any hook.
      const warnings = await regexWarnings((app) => {
        app.get('/w/:a(^\\w+):b(^\\w+):c(^\\w+):d(^\\w+$)', async () => ({}))
        app.get('/x/:a(^(a|aa)+$):b(^\\w+$)', async () => ({}))
        app.get('/ok/:a(^\\w+)-:b(^\\d+)-:c(^\\w+$)', async () => ({}))
        app.get('/ok2/:major(^\\d+).:minor(^\\d+).:patch(^\\d+$)', async () => ({}))
        app.get('/ok3/:slug(^[a-z0-9-]+)-:id(^\\d+$)', async () => ({}))
      })
      expect(warnings.map((w) => [w.route, w.at])).to.deep.equal([
        ['GET /w/:a(^\\w+):b(^\\w+):c(^\\w+):d(^\\w+$)', [':a(^\\w+):b(^\\w+):c(^\\w+):d(^\\w+$)']],
        // A parameter bad alone is named alone, not again with its segment.
        ['GET /x/:a(^(a|aa)+$):b(^\\w+$)', [':a(^(a|aa)+$)']],
      ])
      expect(String(warnings[0].msg)).to.match(/across the parameters of one segment/).and.match(/neither side takes/)
    })

    it('a plain parameter after static text (find-my-way\'s (?:(?!.).)*) is judged as [^.]*: /y/:p.:q-:r(^[a-z]+$) does not warn, while one whose [^.]* meets [a-z-]+ over a - still does', async () => {
      // Stored as ^(.*?)\.(\.|(?:(?!\.).)*)-([a-z]+)$: read as .* the middle group overlapped
      // everything and the linear route was flagged; /v/ differs only by the - its regex also takes.
      const warnings = await regexWarnings((app) => {
        app.get('/y/:p.:q-:r(^[a-z]+$)', async () => ({}))
        app.get('/v/:p.:q-:r(^[a-z-]+$)', async () => ({}))
      })
      expect(warnings.map((w) => [w.route, w.at])).to.deep.equal([
        ['GET /v/:p.:q-:r(^[a-z-]+$)', [':p.:q-:r(^[a-z-]+$)']],
      ])
    })

    it('a RegExp host constraint is judged too (find-my-way tests it on any Host up to 260 characters), named constraints.host; a plain subdomain regex or a string host does not warn', async () => {
      const warnings = await regexWarnings((app) => {
        app.get('/h', { constraints: { host: /^(\w+\.?)+example\.com$/ } }, async () => ({}))
        app.get('/h2', { constraints: { host: /^\w+\w+\w+\w+\.com$/i } }, async () => ({}))
        app.get('/ok', { constraints: { host: /^[a-z0-9-]+\.example\.com$/ } }, async () => ({}))
        app.get('/ok2', { constraints: { host: 'api.example.com' } }, async () => ({}))
      })
      expect(warnings.map((w) => [w.route, w.at])).to.deep.equal([
        ['GET /h', ['constraints.host /^(\\w+\\.?)+example\\.com$/']],
        ['GET /h2', ['constraints.host /^\\w+\\w+\\w+\\w+\\.com$/i']],
      ])
      expect(String(warnings[0].msg)).to.match(/Host header/).and.match(/list the hosts as strings/)
    })

    it('segmentRegexesOf gives the regex find-my-way builds from the written path (Enclave\'s adds the length lookahead, which matches nothing) for a segment of several parameters (trimmed ^ and $, (.*?) and backtrack groups for plain ones, escaped static text)', () => {
      const paths = ['/t/:a(^\\w+):b(^\\w+$)', '/x-:a(^\\d+)-:b(^\\w+$)/y', '/:name-:id(^\\d+$)/x', '/h/:h(^\\d{2})h:m(^\\d{2})m',
        '/f/:a(\\d+)-:b.:c', '/e/:a(\\d+)::x%:b', '/q/:a.:b-:c(^[a-z]+$)', '/two/:a(^\\d+)-:b(^\\w+$)/:c(^\\d+)h:d']
      for (const path of paths) {
        const router = FindMyWay()
        router.on('GET', path, () => undefined)
        expect(segmentRegexesOf(path).map(({ source }) => source), path).to.deep.equal(storedRegexes(router))
      }
      expect(segmentRegexesOf('/t/x-:a(^\\d+):b/:c(\\d+)')).to.deep.equal([{ params: ':a(^\\d+):b', source: '^(\\d+)(.*?)$' }])
    })
  })
})

/** The regexes of find-my-way's parametric nodes, from its tree (the test's one look at its internals). */
function storedRegexes(router: unknown): string[] {
  interface Node { regex: RegExp | null; staticChildrenNodes?: Array<Node | undefined>; parametricChildren?: Node[] }
  const out: string[] = []
  const walk = (node: Node): void => {
    if (node.regex !== null) out.push(node.regex.source)
    for (const child of node.staticChildrenNodes ?? []) if (child !== undefined) walk(child)
    for (const child of node.parametricChildren ?? []) walk(child)
  }
  walk((router as { trees: Record<string, Node> }).trees.GET)
  return out
}
