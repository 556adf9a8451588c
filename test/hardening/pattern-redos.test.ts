// ReDoS through a route schema's regular expressions (docs/errors.md, "Boot warnings",
// ENC_WARN_SCHEMA_PATTERN_REDOS): a pattern with nested quantifiers backtracks exponentially on a
// crafted string that almost matches. The boot warns where no length bound protects it, and a
// `maxLength` bound keeps a crafted string from ever reaching the regex (ajv checks it first).
import { expect } from 'chai'
import { expectErrorShape, listening, rawRequest } from './helpers'
import type { Scope, ServerOptions } from '../../src/runtime'
import { bootWarnings } from '../support/servers'
import { backtracksBadly } from '../../src/runtime/schemas/regex-backtracking'

const code = 'ENC_WARN_SCHEMA_PATTERN_REDOS'

async function patternWarnings(declare: (app: Scope) => void, options: ServerOptions = {}): Promise<Array<Record<string, unknown>>> {
  return (await bootWarnings(declare, options)).filter((warning) => warning.code === code)
}

describe('hardening: ReDoS-prone schema patterns', () => {
  it('a nested-quantifier pattern without maxLength is one warn line at boot naming the route and every place, in any request part', async () => {
    const warnings = await patternWarnings((app) => {
      app.post('/names', { schema: {
        body: { type: 'object', properties: { name: { type: 'string', pattern: '^([a-zA-Z0-9]+\\s?)*$' } }, patternProperties: { '^(x+)+$': { type: 'string' } } },
        querystring: { type: 'object', properties: { q: { type: 'string', pattern: '^(\\d+)*x$' } } },
      } }, async () => ({}))
      app.get('/h', { schema: { headers: { type: 'object', properties: { 'x-tag': { type: 'string', pattern: '^(a|a?)+$' } } } } }, async () => ({}))
    })
    expect(warnings.map((w) => w.route)).to.deep.equal(['POST /names', 'GET /h'])
    expect(warnings[0]).to.include({ scope: 'root' })
    expect(warnings[0].at).to.deep.equal(['body /patternProperties/^(x+)+$', 'body /properties/name/pattern', 'querystring /properties/q/pattern'])
    expect(warnings[0].msg).to.match(/maxLength/)
  })

  it('maxLength next to the pattern, propertyNames.maxLength next to patternProperties, or a pattern without nested quantifiers do not warn', async () => {
    const warnings = await patternWarnings((app) => {
      app.post('/a', { schema: { body: { type: 'string', maxLength: 20, pattern: '^(a+)+$' } } }, async () => ({}))
      app.post('/b', { schema: { body: { type: 'object', propertyNames: { maxLength: 10 }, patternProperties: { '^(x+)+$': {} } } } }, async () => ({}))
      app.post('/c', { schema: { body: { type: 'object', properties: {
        zip: { type: 'string', pattern: '^[0-9]{5}$' }, email: { type: 'string', pattern: '^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$' },
        after: { type: 'string', pattern: '(?<=@)[a-z]+$' }, uuid: { type: 'string', pattern: '^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$' },
      } } } }, async () => ({}))
    })
    expect(warnings).to.deep.equal([])
  })

  it('a maxLength over 1,000 (a size cap, not a bound on the regex) does not silence the warning: a quadratic ^\\s*#?\\s*$ under maxLength 1,000,000 would cost about an hour on a 1 MB body; 1,000 and under do', async () => {
    const warnings = await patternWarnings((app) => {
      app.post('/cap', { schema: { body: { type: 'object', properties: {
        note: { type: 'string', maxLength: 1_000_000, pattern: '^\\s*#?\\s*$' }, tag: { type: 'string', maxLength: 1000, pattern: '^\\s*#?\\s*$' },
      }, propertyNames: { maxLength: 5000 }, patternProperties: { '^(x+)+$': {} } } } }, async () => ({}))
      app.post('/small', { schema: { body: { type: 'object', properties: { tag: { type: 'string', maxLength: 1000, pattern: '^\\s*#?\\s*$' } },
        propertyNames: { maxLength: 1000 }, patternProperties: { '^(x+)+$': {} } } } }, async () => ({}))
    })
    expect(warnings.map((w) => [w.route, w.at])).to.deep.equal([['POST /cap', ['body /patternProperties/^(x+)+$', 'body /properties/note/pattern']]])
    expect(warnings[0].msg).to.match(/at most 1,000/)
  })

  it('an optional group holding a quantifier (a decimal ^-?\\d+(\\.\\d+)?$, an ISO date-time fraction, a slug suffix) does not warn: a group taken at most once nests nothing; ((a+)?)+ still does', async () => {
    const warnings = await patternWarnings((app) => {
      app.post('/ok', { schema: { body: { type: 'object', properties: {
        amount: { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' },
        at: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$' },
        slug: { type: 'string', pattern: '^[a-z]+(?:-[a-z]+)??$' },
      } } } }, async () => ({}))
      app.post('/bad', { schema: { body: { type: 'string', pattern: '^((a+)?)+$' } } }, async () => ({}))
    })
    expect(warnings.map((w) => [w.route, w.at])).to.deep.equal([['POST /bad', ['body /pattern']]])
  })

  it('bounded repeats do not warn (an IPv4 pattern\'s (...){3}); overlapping alternatives under a repetition ((a|aa)+) and adjacent unbounded repetitions over the same characters (^\\s*#?\\s*$, polynomial) do', async () => {
    const ipv4 = '^((25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1?\\d?\\d)$'
    const warnings = await patternWarnings((app) => {
      app.post('/ok', { schema: { body: { type: 'object', properties: {
        ip: { type: 'string', pattern: ipv4 }, codes: { type: 'string', pattern: '^(ab|cd)+$' }, word: { type: 'string', pattern: '^[a-z]+\\d*$' },
      } } } }, async () => ({}))
      app.post('/alternation', { schema: { body: { type: 'string', pattern: '^(a|aa)+$' } } }, async () => ({}))
      app.post('/comment', { schema: { body: { type: 'string', pattern: '^\\s*#?\\s*$' } } }, async () => ({}))
      app.post('/digits', { schema: { body: { type: 'string', pattern: '^\\d+\\d+$' } } }, async () => ({}))
    })
    expect(warnings.map((w) => w.route)).to.deep.equal(['POST /alternation', 'POST /comment', 'POST /digits'])
  })

  it('unbounded repetitions that meet through groups and optional wrappers ((a*)(a*)b, (?:a*)?(?:a*)?b, (a*){2}, (\\w+)\\s*(\\w*)) warn; the same with characters that cannot overlap, or a separator between, do not', async () => {
    const warnings = await patternWarnings((app) => {
      app.post('/captures', { schema: { body: { type: 'string', pattern: '(a*)(a*)b' } } }, async () => ({}))
      app.post('/optional', { schema: { body: { type: 'string', pattern: '(?:a*)?(?:a*)?b' } } }, async () => ({}))
      app.post('/twice', { schema: { body: { type: 'string', pattern: '^(a*){2}$' } } }, async () => ({}))
      app.post('/words', { schema: { body: { type: 'string', pattern: '^(\\w+)\\s*(\\w*)$' } } }, async () => ({}))
      app.post('/ok', { schema: { body: { type: 'object', properties: {
        letters: { type: 'string', pattern: '^(?:[a-z]*)?(?:\\d*)?$' }, separated: { type: 'string', pattern: '^(a*)-(a*)$' }, octets: { type: 'string', pattern: '^(\\d+\\.){3}\\d+$' },
      } } } }, async () => ({}))
    })
    expect(warnings.map((w) => w.route)).to.deep.equal(['POST /captures', 'POST /optional', 'POST /twice', 'POST /words'])
  })

  it('a lookbehind is judged like any lookaround, by the checker itself: (?<=@)[a-z]+$, (?<!x)a+$ and a thousands separator do not warn; a bad pattern inside one does', () => {
    expect(backtracksBadly('(?<=@)[a-z]+$')).to.equal(false)
    expect(backtracksBadly('(?<!x)a+$')).to.equal(false)
    expect(backtracksBadly('\\B(?<!\\.\\d*)(?=(\\d{3})+(?!\\d))')).to.equal(false)
    expect(backtracksBadly('(?<=(a+)+)b')).to.equal(true)
  })

  it('a bounded repeat whose copies meet through a character both sides take ((.*a){20}, degree 20) warns, as do two unbounded repetitions meeting so (the common ^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$); a separator neither takes does not', () => {
    expect(backtracksBadly('(.*a){20}')).to.equal(true)
    expect(backtracksBadly('^(a.*){2}$')).to.equal(true)
    expect(backtracksBadly('^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$')).to.equal(true)
    expect(backtracksBadly('^a.*b.*c$')).to.equal(true)
    expect(backtracksBadly('^(\\d+\\.){3}\\d+$')).to.equal(false)
    expect(backtracksBadly('^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$')).to.equal(false)
    expect(backtracksBadly('^\\w+@\\w+\\.\\w+$')).to.equal(false)
  })

  it('a lookaround between two repetitions narrows what they can share: \\d+(?!\\d)\\d+ and a+(?=b)a+ do not warn; x(?=a)a*a* and \\w+(?=\\w)\\w+ still do', () => {
    expect(backtracksBadly('\\d+(?!\\d)\\d+')).to.equal(false)
    expect(backtracksBadly('a+(?=b)a+')).to.equal(false)
    expect(backtracksBadly('a+(?<=b)a+')).to.equal(false)
    expect(backtracksBadly('x(?=a)a*a*')).to.equal(true)
    expect(backtracksBadly('\\w+(?=\\w)\\w+')).to.equal(true)
  })

  it('a Unicode property (\\p{L}, as ajv 8 reads it) is compared by its code points or General_Category: \\p{L}+\\d+ and \\p{L}+\\s\\p{L}+ do not warn; \\p{L}+\\p{L}+ and \\p{L}+[a-z]+ do', () => {
    expect(backtracksBadly('^\\p{L}+\\d+$')).to.equal(false)
    expect(backtracksBadly('^\\p{L}+\\s\\p{L}+$')).to.equal(false)
    expect(backtracksBadly('^\\p{L}+\\p{N}+$')).to.equal(false)
    expect(backtracksBadly('^[^\\p{L}]+\\p{L}+$')).to.equal(false)
    expect(backtracksBadly('^\\p{L}+\\p{L}+$')).to.equal(true)
    expect(backtracksBadly('^\\p{L}+[a-z]+$')).to.equal(true)
    expect(backtracksBadly('^\\p{Lu}\\p{L}*\\p{Ll}*$')).to.equal(true)
    expect(backtracksBadly('^(\\p{L}+)+$')).to.equal(true)
  })

  it('with the validator option allErrors: true, maxLength does not silence the warning: ajv then runs the pattern on a string already too long', async () => {
    const warnings = await patternWarnings((app) => {
      app.post('/a', { schema: { body: { type: 'string', maxLength: 20, pattern: '^(a+)+$' } } }, async () => ({}))
      app.post('/b', { schema: { body: { type: 'object', propertyNames: { maxLength: 10 }, patternProperties: { '^(x+)+$': { type: 'string' } } } } }, async () => ({}))
    }, { validator: { customOptions: { allErrors: true } } })
    expect(warnings.map((w) => [w.route, w.at])).to.deep.equal([['POST /a', ['body /pattern']], ['POST /b', ['body /patternProperties/^(x+)+$']]])
    expect(warnings[0].msg).to.match(/allErrors/)
  })

  it('a shared schema reached by $ref is checked where a request uses it; response schemas are not', async () => {
    const warnings = await patternWarnings((app) => {
      app.addSchema({ $id: 'Slug', type: 'string', pattern: '^([a-z]+)*$' })
      app.post('/x', { schema: { body: { type: 'object', properties: { slug: { $ref: 'Slug#' } } } } }, async () => ({}))
      app.get('/r', { schema: { response: { 200: { type: 'string', pattern: '^(a+)+$' } } } }, async () => 'a')
    })
    expect(warnings.map((w) => [w.route, w.at])).to.deep.equal([['POST /x', ['body Slug#/pattern']]])
  })

  it('with maxLength, a crafted near-match of 100,000 characters is a 400 and the server keeps answering', async () => {
    const { app, address } = await listening((root) => {
      root.post('/name', { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 64, pattern: '^([a-zA-Z0-9]+\\s?)*$' } } } } }, async () => ({ ok: true }))
    })
    try {
      const crafted = JSON.stringify({ name: 'a'.repeat(100_000) + '!' })
      for (let i = 0; i < 20; i++) {
        const res = await rawRequest(address, `POST /name HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(crafted)}\r\nConnection: close\r\n\r\n${crafted}`)
        expect(res.status).to.equal(400)
        expect(expectErrorShape(res.body, 400).message).to.match(/maxLength|64/)
      }
      const ok = await app.inject({ method: 'POST', url: '/name', payload: { name: 'Ada Lovelace' } })
      expect(ok.statusCode).to.equal(200)
    } finally { await app.close() }
  })
})
