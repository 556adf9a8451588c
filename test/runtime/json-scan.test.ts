import { expect } from 'chai'
import secureJson from 'secure-json-parse'
import { scanJson, JSON_TOO_DEEP, JSON_MAY_OVERFLOW, JSON_NEEDS_POISON_CHECK } from '../../src/runtime/serve/body/json-scan'
import { mulberry32 } from '../../bench/harness/prng'
import { server } from '../support/servers'

/** The scan reads the body's bytes, as the parser hands them over. */
function scanText(text: string, maxDepth: number): number {
  return scanJson(Buffer.from(text, 'utf8'), maxDepth)
}

/** Whether the parser would hand `text` to secure-json-parse. */
function needsPoisonCheck(text: string): boolean {
  return (scanText(text, 64) & JSON_NEEDS_POISON_CHECK) !== 0
}

/** The parsed value holds ±Infinity somewhere. */
function hasNonFinite(root: unknown): boolean {
  const stack = [root]
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v === 'number' && !Number.isFinite(v)) return true
    if (v !== null && typeof v === 'object') stack.push(...Object.values(v))
  }
  return false
}

/** The nesting depth of valid JSON, counted on the parsed value. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0
  return 1 + Math.max(0, ...Object.values(value).map(depthOf))
}

describe('scanJson: depth and number checks in one pass before parsing', () => {
  it('counts objects and arrays alike and refuses one level past the limit', () => {
    expect(scanText('[{"a":[1]}]', 3)).to.equal(0)
    expect(scanText('[{"a":[1]}]', 2) & JSON_TOO_DEEP).to.equal(JSON_TOO_DEEP)
  })

  it('brackets inside strings do not count, also after escaped quotes and escaped backslashes', () => {
    expect(scanText('["[[[[", "\\"[[[[", "\\\\", "{{{{"]', 1) & (JSON_TOO_DEEP | JSON_MAY_OVERFLOW)).to.equal(0)
    // After "\\\\" the string has closed: the bracket that follows is structure.
    expect(scanText('["\\\\", [[1]]]', 2) & JSON_TOO_DEEP).to.equal(JSON_TOO_DEEP)
  })

  it('flags three-digit exponents and long digit runs, not strings that look like them', () => {
    expect(scanText('[1e309]', 10) & JSON_MAY_OVERFLOW).to.equal(JSON_MAY_OVERFLOW)
    expect(scanText('[1E+400]', 10) & JSON_MAY_OVERFLOW).to.equal(JSON_MAY_OVERFLOW)
    expect(scanText(`[${'9'.repeat(309)}]`, 10) & JSON_MAY_OVERFLOW).to.equal(JSON_MAY_OVERFLOW)
    expect(scanText('[1e-400, 1e99, "1e999", true, false]', 10)).to.equal(0)
    expect(scanText(`["${'9'.repeat(400)}"]`, 10)).to.equal(0)
  })

  it('flags 250 digits with a two-digit exponent, which overflows and no 3-digit exponent or 309-digit run shows', () => {
    const literal = `${'9'.repeat(250)}e60`
    expect(Number(literal)).to.equal(Infinity)
    expect(scanText(`[${literal}]`, 10) & JSON_MAY_OVERFLOW).to.equal(JSON_MAY_OVERFLOW)
  })

  it('never misses a non-finite number or misjudges depth on 5,000 random documents', () => {
    const next = mulberry32(1605)
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]
    const numbers = ['1', '0', '-0.5', '1e308', '1e309', '-2.5E+3', '1E400', '0.5e-400', '9'.repeat(215), `${'9'.repeat(250)}e60`, `${'1'.repeat(300)}.5`]
    const strings = ['"s"', '"\\"["', '"\\\\"', '"e999"', '"[{"', '""']
    const value = (depth: number): string => {
      const kind = depth > 4 ? 0 : Math.floor(next() * 4)
      if (kind === 0) return next() < 0.5 ? pick(numbers) : pick(strings)
      if (kind === 1) return pick(['true', 'false', 'null'])
      const items = Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1))
      return kind === 2 ? `[${items.join(',')}]` : `{${items.map((v, i) => `"k${i}": ${v}`).join(', ')}}`
    }
    for (let t = 0; t < 5_000; t++) {
      const text = value(0)
      const parsed: unknown = JSON.parse(text)
      const max = 1 + Math.floor(next() * 4)
      const flags = scanText(text, max)
      expect((flags & JSON_TOO_DEEP) !== 0, text).to.equal(depthOf(parsed) > max)
      if (depthOf(parsed) <= max && hasNonFinite(parsed)) expect(flags & JSON_MAY_OVERFLOW, text).to.equal(JSON_MAY_OVERFLOW)
    }
  })

  it('ends on unterminated strings and stray text without throwing', () => {
    for (const text of ['"abc', '["a', '{"a":"\\', 'e', '1e', '1e+', ']]]]']) expect(() => scanText(text, 2)).to.not.throw()
  })
})

describe('needsPoisonCheck', () => {
  it('is false for plain JSON and true whenever a key could spell __proto__ or constructor', () => {
    expect(needsPoisonCheck('{"name":"x","tags":["a"]}')).to.equal(false)
    expect(needsPoisonCheck('{"__proto__":{}}')).to.equal(true)
    expect(needsPoisonCheck('{"constructor":{"prototype":{}}}')).to.equal(true)
    expect(needsPoisonCheck('{"\\u005f_proto__":{}}')).to.equal(true)
    expect(needsPoisonCheck('\uFEFF{"a":1}')).to.equal(true)
  })

  it('looks at whole string literals: the words inside longer strings do not call for secure-json-parse', () => {
    expect(needsPoisonCheck('{"note":"the constructor of __proto__ chains","constructors":1,"__proto__x":2}')).to.equal(false)
    expect(needsPoisonCheck('["constructor"]')).to.equal(true)
    expect(needsPoisonCheck('{"a":"\\n"}')).to.equal(true)
  })

  it('agrees with secure-json-parse on 3,000 random documents: no body it would refuse or change goes unflagged', () => {
    const next = mulberry32(1623)
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]
    const keys = ['"a"', '"__proto__"', '"constructor"', '"prototype"', '"\\u005f_proto__"', '"constructo\\u0072"', '"__proto"', '"constructors"', '"é__proto__"']
    const value = (depth: number): string => {
      if (depth > 3 || next() < 0.3) return pick(['1', '"x"', '"__proto__"', '"constructor"', 'null', '"ü"'])
      const items = Array.from({ length: Math.floor(next() * 3) }, () => value(depth + 1))
      return next() < 0.3 ? `[${items.join(',')}]` : `{${items.map((v) => `${pick(keys)}:${v}`).join(',')}}`
    }
    for (let t = 0; t < 3_000; t++) {
      const text = value(0)
      let refused = false
      try {
        secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' })
      } catch {
        refused = true
      }
      const removed = JSON.stringify(secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' }))
      if (refused || removed !== JSON.stringify(JSON.parse(text))) expect(needsPoisonCheck(text), text).to.equal(true)
    }
  })
})

describe('scanJson on UTF-8 bytes', () => {
  it('counts no multi-byte character as structure: depth and flags are those of the ASCII text', () => {
    expect(scanText('["é[", "日本{{", {"ü":["🙂"]}]', 3)).to.equal(0)
    expect(scanText('["é[", {"ü":[["🙂"]]}]', 3) & JSON_TOO_DEEP).to.equal(JSON_TOO_DEEP)
  })
})

describe('the default JSON parser after the single-pass scan', () => {
  it('250 digits with a two-digit exponent (Infinity) is a 400 ENC_ERR_CTP_INVALID_JSON, not a 500', async () => {
    const app = server()
    app.post('/n', { schema: { body: { type: 'object', properties: { n: { type: 'number' } } }, response: { 200: { type: 'object', properties: { n: { type: 'number' } } } } } }, (request) => request.body)
    const answer = await app.inject({ method: 'POST', url: '/n', payload: `{"n":${'9'.repeat(250)}e60}`, headers: { 'content-type': 'application/json' } })
    expect(answer.statusCode).to.equal(400)
    expect(JSON.parse(answer.body).code).to.equal('ENC_ERR_CTP_INVALID_JSON')
  })

  it('plain bodies skip secure-json-parse but escaped __proto__ keys still meet it', async () => {
    const app = server()
    app.post('/p', (request) => ({ keys: Object.keys(request.body as object) }))
    const plain = await app.inject({ method: 'POST', url: '/p', payload: '{"a":1,"b":[{"c":"d"}]}', headers: { 'content-type': 'application/json' } })
    expect(JSON.parse(plain.body)).to.deep.equal({ keys: ['a', 'b'] })
    const poisoned = await app.inject({ method: 'POST', url: '/p', payload: '{"\\u005f_proto__":{"x":1}}', headers: { 'content-type': 'application/json' } })
    expect(poisoned.statusCode).to.equal(400)
    expect(JSON.parse(poisoned.body).code).to.equal('ENC_ERR_CTP_FORBIDDEN_PROTO')
  })
})
