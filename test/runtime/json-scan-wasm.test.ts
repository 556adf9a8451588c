import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { scanJson, scanJsonLoop, JSON_TOO_DEEP, JSON_MAY_OVERFLOW, JSON_NEEDS_POISON_CHECK, WASM_SCAN_MIN_BYTES } from '../../src/runtime/serve/body/json-scan'
import { scanJsonWasm, wasmScanAvailable, WASM_SCAN_MAX_BYTES } from '../../src/runtime/serve/body/json-scan-wasm'
import { JSON_SCAN_WASM } from '../../src/runtime/serve/body/json-scan-wasm-binary'
import { mulberry32 } from '../../bench/harness/prng'
import { jsonParser } from '../../src/runtime/serve/body/json-parser'
import { server } from '../support/servers'

const ROOT = join(__dirname, '..', '..', '..')
const BODY_DIR = join(ROOT, 'src', 'runtime', 'serve', 'body')
// eslint-disable-next-line @typescript-eslint/no-require-imports
const assembler = require(join(ROOT, 'scripts', 'assemble-json-scan.js')) as { assemble(text: string): Promise<Buffer> }

/** Both scans of `text`; the WebAssembly one directly, whatever the size. */
function both(text: string, maxDepth: number): { loop: number; wasm: number } {
  const bytes = Buffer.from(text, 'utf8')
  return { loop: scanJsonLoop(bytes, maxDepth), wasm: scanJsonWasm(bytes, maxDepth) }
}

/** The WebAssembly scan gives the loop's flags for `text`. */
function expectSame(text: string, maxDepth: number): number {
  const { loop, wasm } = both(text, maxDepth)
  expect(wasm, `${text.slice(0, 200)} (max ${maxDepth})`).to.equal(loop)
  return wasm
}

/** `text` shifted by 0..70 spaces, so each feature lands on every offset of a 64-byte block and across blocks. */
function atEveryOffset(text: string, maxDepth: number, check: (flags: number, shifted: string) => void): void {
  for (let pad = 0; pad <= 70; pad++) {
    const shifted = `${' '.repeat(pad)}${text}`
    check(expectSame(shifted, maxDepth), shifted)
  }
}

describe('scanJson in WebAssembly (json-scan.wat)', () => {
  it('the embedded bytes are json-scan.wat as the committed script assembles it', async () => {
    const text = readFileSync(join(BODY_DIR, 'json-scan.wat'), 'utf8')
    const bytes = await assembler.assemble(text)
    expect(bytes.toString('base64'), 'run `npm run wasm:json-scan` after editing json-scan.wat').to.equal(JSON_SCAN_WASM)
  })

  it('runs on this Node (SIMD available), so bodies of 40 bytes and more take it', () => {
    expect(wasmScanAvailable()).to.equal(true)
    expect(WASM_SCAN_MIN_BYTES).to.equal(40)
  })

  it('classifies every byte value as the loop does (runs of 5 and 250 of it, inside and outside a string)', () => {
    for (let value = 0; value < 256; value++) {
      if (value === 0x22 || value === 0x5C) continue
      for (const n of [5, 250]) {
        const outside = Buffer.alloc(n + 2, value)
        outside[0] = 0x5B
        outside[n + 1] = 0x5D
        const inside = Buffer.concat([Buffer.from('["'), Buffer.alloc(n, value), Buffer.from('"]')])
        for (const bytes of [outside, inside]) expect(scanJsonWasm(bytes, 1000), `byte ${value} x ${n}`).to.equal(scanJsonLoop(bytes, 1000))
      }
    }
  })

  it('skips escaped quotes inside strings at every block offset: the brackets after them stay inside the string', () => {
    atEveryOffset('["\\"[[[[", "[[[["]', 1, (flags) => expect(flags).to.equal(JSON_NEEDS_POISON_CHECK))
    atEveryOffset('["\\\\", [[1]]]', 2, (flags) => expect(flags & JSON_TOO_DEEP).to.equal(JSON_TOO_DEEP))
    atEveryOffset('["\\\\\\"[[[", 1]', 1, (flags) => expect(flags).to.equal(JSON_NEEDS_POISON_CHECK))
  })

  it('follows a backslash run that crosses a 64-byte block boundary', () => {
    for (let run = 1; run <= 6; run++) {
      atEveryOffset(`["${'\\'.repeat(run)}"[[[", 1]`, 2, (flags) => {
        // An odd run escapes the quote: the string goes on to the next quote and "[[[" is text.
        expect(flags).to.equal(run % 2 === 1 ? JSON_NEEDS_POISON_CHECK : JSON_NEEDS_POISON_CHECK | JSON_TOO_DEEP)
      })
    }
  })

  it('flags the poison check for a backslash outside any string, which JSON.parse refuses at that byte', () => {
    for (let pad = 0; pad <= 70; pad++) {
      const text = `${' '.repeat(pad)}[1, \\"[[[[[", 2]`
      const { loop, wasm } = both(text, 2)
      expect(loop & JSON_NEEDS_POISON_CHECK).to.equal(JSON_NEEDS_POISON_CHECK)
      expect(wasm & JSON_NEEDS_POISON_CHECK).to.equal(JSON_NEEDS_POISON_CHECK)
      expect(() => JSON.parse(text)).to.throw(SyntaxError)
    }
  })

  it('counts no bracket inside a string, also in strings longer than a block', () => {
    const long = `["${'[{'.repeat(100)}", {"a": ["${'}]'.repeat(50)}"]}]`
    expect(expectSame(long, 3)).to.equal(0)
    expect(expectSame(long, 2) & JSON_TOO_DEEP).to.equal(JSON_TOO_DEEP)
  })

  it('reads UTF-8 text and its multi-byte characters as the loop does', () => {
    atEveryOffset('["é[", "日本{{", {"ü":["🙂", "\\u00e9"]}, "€]]"]', 3, (flags) => expect(flags).to.equal(JSON_NEEDS_POISON_CHECK))
    atEveryOffset('["é[", "日本{{", {"ü":["🙂"]}, "€]]"]', 3, (flags) => expect(flags).to.equal(0))
  })

  it('flags a leading byte-order mark through scanJson, as the loop does', () => {
    const text = `\uFEFF${JSON.stringify({ a: 'x'.repeat(100) })}`
    const bytes = Buffer.from(text, 'utf8')
    expect(bytes.length).to.be.greaterThan(WASM_SCAN_MIN_BYTES)
    expect(scanJson(bytes, 4)).to.equal(JSON_NEEDS_POISON_CHECK)
    expect(scanJsonLoop(bytes, 4)).to.equal(JSON_NEEDS_POISON_CHECK)
  })

  it('refuses one level past the limit and accepts depth exactly at the limit, wherever the brackets fall', () => {
    for (const max of [1, 5, 63, 64, 65, 200, 1000]) {
      const at = `${'['.repeat(max)}1${']'.repeat(max)}`
      const past = `${'['.repeat(max + 1)}1${']'.repeat(max + 1)}`
      expect(expectSame(at, max), `at ${max}`).to.equal(0)
      expect(expectSame(past, max) & JSON_TOO_DEEP, `past ${max}`).to.equal(JSON_TOO_DEEP)
      expect(expectSame(`{"a":${at.slice(1, -1)}}`, max), `object at ${max}`).to.equal(0)
    }
    // Closed brackets do not add up: 10,000 siblings at depth 2.
    expect(expectSame(`[${'[1],'.repeat(10_000)}[1]]`, 2)).to.equal(0)
  })

  it('stops early on an attacker\'s megabyte of "[", and stays bounded when the depth hovers at the limit', () => {
    const deep = Buffer.alloc(1024 * 1024, '[')
    expect(scanJsonWasm(deep, 1000) & JSON_TOO_DEEP).to.equal(JSON_TOO_DEEP)
    const hover = `${'['.repeat(999)}${'[]'.repeat(200_000)}`
    expect(expectSame(hover, 1000)).to.equal(0)
    expect(expectSame(`${hover}[[`, 1000) & JSON_TOO_DEEP).to.equal(JSON_TOO_DEEP)
  })

  it('flags digit runs from 210 digits on, at every offset and across blocks, and not in strings', () => {
    for (const digits of [63, 64, 65, 128, 129, 209, 210, 211, 300, 700]) {
      atEveryOffset(`[${'9'.repeat(digits)}]`, 2, (flags) => expect(flags).to.equal(digits >= 210 ? JSON_MAY_OVERFLOW : 0))
      atEveryOffset(`["${'9'.repeat(digits)}"]`, 2, (flags) => expect(flags).to.equal(0))
    }
    // A run broken by a decimal point is two runs.
    expect(expectSame(`[${'1'.repeat(150)}.${'1'.repeat(150)}]`, 2)).to.equal(0)
  })

  it('flags exponents of three digits or more at every offset, not two-digit or negative ones, nor in strings', () => {
    atEveryOffset('[1e309]', 2, (flags) => expect(flags).to.equal(JSON_MAY_OVERFLOW))
    atEveryOffset('[1E+400]', 2, (flags) => expect(flags).to.equal(JSON_MAY_OVERFLOW))
    atEveryOffset('[1.5e99, 2E+12, 1e-400, true, false, "1e999"]', 2, (flags) => expect(flags).to.equal(0))
    atEveryOffset(`[${'9'.repeat(250)}e60]`, 2, (flags) => expect(flags).to.equal(JSON_MAY_OVERFLOW))
  })

  it('finds __proto__ and constructor literals at every offset, across blocks, and only whole literals', () => {
    for (const word of ['__proto__', 'constructor']) {
      atEveryOffset(`{"a":1,"${word}":{}}`, 4, (flags) => expect(flags).to.equal(JSON_NEEDS_POISON_CHECK))
      atEveryOffset(`["${word}"]`, 4, (flags) => expect(flags).to.equal(JSON_NEEDS_POISON_CHECK))
      atEveryOffset(`{"${word}x":1,"x${word}":2,"a":"${word} and more"}`, 4, (flags) => expect(flags).to.equal(0))
    }
    // Same length, other words: "Springfield" has 11 bytes, "__proto_x" 9.
    atEveryOffset('{"city":"Springfield","k":"__proto_x","c":"constructer"}', 4, (flags) => expect(flags).to.equal(0))
  })

  it('sees the last block\'s literal when the body ends right after it', () => {
    atEveryOffset('"__proto__"', 1, (flags) => expect(flags).to.equal(JSON_NEEDS_POISON_CHECK))
    atEveryOffset('"constructor"', 1, (flags) => expect(flags).to.equal(JSON_NEEDS_POISON_CHECK))
  })

  it('ends on unterminated strings and stray text without throwing, with the loop\'s flags', () => {
    for (const text of ['"abc', '["a', '{"a":"\\', 'e', '1e', '1e+', ']]]]', '"__proto__', '[1e99']) {
      atEveryOffset(text, 2, () => undefined)
    }
  })

  it('reads nothing of a previous, larger body: the memory after a body is reset', () => {
    scanJsonWasm(Buffer.from(`[${'9'.repeat(300_000)}]`), 2)
    expect(expectSame('[1,2,3]', 2)).to.equal(0)
    scanJsonWasm(Buffer.from(`["${'x'.repeat(70)}`), 2)
    expect(expectSame('[1]', 2)).to.equal(0)
  })

  it('leaves bodies past its memory cap to the loop', () => {
    const big = Buffer.from(`[${'"abcdefgh",'.repeat(Math.ceil(WASM_SCAN_MAX_BYTES / 11))}1e999]`)
    expect(big.length).to.be.greaterThan(WASM_SCAN_MAX_BYTES)
    expect(scanJson(big, 2)).to.equal(JSON_MAY_OVERFLOW)
  })

  it('gives the loop\'s flags on 3,000 random JSON documents with escapes, UTF-8 and long strings', () => {
    const next = mulberry32(6464)
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]
    const pieces = ['a', 'é', '日本', '🙂', '[', ']', '{', '}', '\\"', '\\\\', '\\u0041', '1e999', ' '.repeat(40), 'x'.repeat(61), '__proto__', 'constructor']
    const str = (): string => `"${Array.from({ length: Math.floor(next() * 5) }, () => pick(pieces)).join('')}"`
    const numbers = ['1', '0', '-0.5', '1e308', '1e309', '-2.5E+3', '1E400', '0.5e-400', '9'.repeat(215), `${'9'.repeat(250)}e60`, '12345678901234567890']
    const value = (depth: number): string => {
      const kind = depth > 6 ? 0 : Math.floor(next() * 4)
      if (kind === 0) return next() < 0.5 ? pick(numbers) : str()
      if (kind === 1) return pick(['true', 'false', 'null', '"__proto__"', '"constructor"'])
      const items = Array.from({ length: Math.floor(next() * 5) }, () => value(depth + 1))
      return kind === 2 ? `[${items.join(',')}]` : `{${items.map((v) => `${str()}: ${v}`).join(', ')}}`
    }
    for (let t = 0; t < 3_000; t++) {
      const text = value(0)
      JSON.parse(text)
      const { loop, wasm } = both(text, 1 + Math.floor(next() * 8))
      if ((loop & JSON_TOO_DEEP) !== 0) expect(wasm & JSON_TOO_DEEP, text).to.equal(JSON_TOO_DEEP)
      else expect(wasm, text).to.equal(loop)
    }
  })

  it('on 3,000 random texts that are not JSON, judges depth and the poison check as the loop does', () => {
    // No backslashes here: outside a string the loop does not let one escape the next byte and
    // the WebAssembly scan does, so their string state may part after it. Both flag the poison
    // check there, and JSON.parse refuses the text at that byte, before any nesting past it.
    const next = mulberry32(1664)
    const pieces = ['"', '[', ']', '{', '}', '1', '9', '0', '123', 'e', 'E', '+', '-', ' ', 'a', '_', 'é', '€', ',', ':', '1e', '1e+', '999', '9'.repeat(70), ' '.repeat(30), '"__proto__"', '"constructor"', '"x[y"']
    for (let t = 0; t < 3_000; t++) {
      const text = Array.from({ length: Math.floor(next() * 120) }, () => pieces[Math.floor(next() * pieces.length)]).join('')
      const { loop, wasm } = both(text, 1 + Math.floor(next() * 8))
      expect(wasm & JSON_TOO_DEEP, text).to.equal(loop & JSON_TOO_DEEP)
      if ((loop & JSON_TOO_DEEP) !== 0) continue
      expect(wasm & JSON_NEEDS_POISON_CHECK, text).to.equal(loop & JSON_NEEDS_POISON_CHECK)
      // It may flag more overflow (`1e+1e999`, which JSON.parse refuses): never less.
      expect(wasm & loop, text).to.equal(loop)
    }
  })
})

describe('the default JSON parser with the WebAssembly scan', () => {
  const echo = (maxJsonDepth?: number) => {
    const app = server(maxJsonDepth === undefined ? {} : { maxJsonDepth })
    app.post('/echo', (request) => ({ ok: typeof request.body }))
    return app
  }

  it('refuses a 64 KB body whose __proto__ key comes after the first kilobytes', async () => {
    const filler = Array.from({ length: 2000 }, (_, i) => `"k${i}":"${'v'.repeat(20)}"`).join(',')
    const answer = await echo().inject({ method: 'POST', url: '/echo', payload: `{${filler},"__proto__":{"x":1}}`, headers: { 'content-type': 'application/json' } })
    expect(answer.statusCode).to.equal(400)
    expect(JSON.parse(answer.body).code).to.equal('ENC_ERR_CTP_FORBIDDEN_PROTO')
  })

  it('answers 400 ENC_ERR_CTP_JSON_TOO_DEEP to a large body nested one level past maxJsonDepth', async () => {
    const text = `{"pad":"${'x'.repeat(5000)}","deep":${'['.repeat(11)}${']'.repeat(11)}}`
    const answer = await echo(11).inject({ method: 'POST', url: '/echo', payload: text, headers: { 'content-type': 'application/json' } })
    expect(answer.statusCode).to.equal(400)
    expect(JSON.parse(answer.body).code).to.equal('ENC_ERR_CTP_JSON_TOO_DEEP')
    const ok = await echo(12).inject({ method: 'POST', url: '/echo', payload: text, headers: { 'content-type': 'application/json' } })
    expect(ok.statusCode).to.equal(200)
  })

  /** `text` as its UTF-8 bytes cut at `cuts`. */
  const chunked = (text: string, cuts: number[]): Buffer[] => {
    const bytes = Buffer.from(text, 'utf8')
    const edges = [0, ...cuts, bytes.length]
    return edges.slice(1).map((end, i) => bytes.subarray(edges[i], end))
  }
  const fromChunks = (text: string, cuts: number[], maxDepth = 64): unknown => {
    const chunks = chunked(text, cuts)
    const parser = jsonParser(maxDepth)
    return (parser.fromChunks as NonNullable<typeof parser.fromChunks>)(chunks, Buffer.byteLength(text))
  }

  it('parses a body from its chunks as from one Buffer, whatever the cuts (a multi-byte character or a word split)', () => {
    const value = { name: 'Zoë 日本 🙂', notes: 'x'.repeat(100), list: [1, 2.5, -3e10, 'constructor of it'], nested: { a: [{ b: '"[{' }] } }
    const text = JSON.stringify(value)
    for (const cut of [1, 2, 3, 10, 11, 12, 13, 14, 40, 63, 64, 65, text.length - 1]) {
      expect(fromChunks(text, [cut])).to.deep.equal(value)
      expect(fromChunks(text, [Math.floor(cut / 2), cut])).to.deep.equal(value)
    }
  })

  it('from chunks: refuses a __proto__ key split over two chunks, drops a byte-order mark split over three, and refuses depth past the limit', () => {
    const poisoned = `{"pad":"${'x'.repeat(60)}","__proto__":{"x":1}}`
    const at = poisoned.indexOf('__proto__')
    expect(() => fromChunks(poisoned, [at + 4])).to.throw().with.property('code', 'ENC_ERR_CTP_FORBIDDEN_PROTO')
    const withBom = `\uFEFF{"pad":"${'x'.repeat(60)}","a":1}`
    expect(fromChunks(withBom, [1, 2])).to.deep.equal({ pad: 'x'.repeat(60), a: 1 })
    const deep = `{"pad":"${'x'.repeat(60)}","d":${'['.repeat(10)}${']'.repeat(10)}}`
    expect(() => fromChunks(deep, [70, 75], 10)).to.throw().with.property('code', 'ENC_ERR_CTP_JSON_TOO_DEEP')
    expect(fromChunks(deep, [70, 75], 11)).to.have.property('pad')
  })

  it('decodes a large body as its UTF-8 text whether it is all ASCII or not (a multi-byte character, a byte-order mark, a malformed byte at the end)', () => {
    const pad = 'x'.repeat(4096)
    const ascii = { pad, text: 'plain ~ text', n: 1.5 }
    expect(fromChunks(JSON.stringify(ascii), [10, 100])).to.deep.equal(ascii)
    // The only non-ASCII byte is the last one before the closing quote: the check reads every byte.
    for (const tail of ['é', '日本', '🙂']) {
      const value = { pad, tail }
      expect(fromChunks(JSON.stringify(value), [10, 100])).to.deep.equal(value)
    }
    expect(fromChunks(`\uFEFF${JSON.stringify(ascii)}`, [1, 2])).to.deep.equal(ascii)
    // A byte that is no UTF-8 reads as U+FFFD, as before (and as JSON.parse of a Buffer's text would).
    const malformed = Buffer.concat([Buffer.from(`{"pad":"${pad}","bad":"`), Buffer.from([0xff]), Buffer.from('"}')])
    const parser = jsonParser(64)
    expect((parser.fromChunks as NonNullable<typeof parser.fromChunks>)([malformed], malformed.length)).to.deep.equal({ pad, bad: '\uFFFD' })
  })

  it('decodes every body the scan takes as its UTF-8 text, with one non-ASCII character at any offset of a 64-byte block, after an all-ASCII body', () => {
    const parser = jsonParser(64)
    const parse = (text: string): unknown => {
      const bytes = Buffer.from(text, 'utf8')
      return (parser.fromChunks as NonNullable<typeof parser.fromChunks>)([bytes], bytes.length)
    }
    for (let pad = 0; pad < 130; pad++) {
      // The all-ASCII body first: the next one must not be decoded by its verdict.
      const ascii = { pad: 'x'.repeat(pad), text: 'plain text, long enough for the WebAssembly scan' }
      expect(parse(JSON.stringify(ascii))).to.deep.equal(ascii)
      for (const char of ['é', '日', '🙂', '\u0080']) {
        const value = { pad: 'x'.repeat(pad), char, text: 'plain text, long enough for the WebAssembly scan' }
        expect(parse(JSON.stringify(value)), `${char} after ${pad}`).to.deep.equal(value)
      }
    }
    const malformed = Buffer.concat([Buffer.from('{"pad":"0123456789012345678901234567890123456789","bad":"'), Buffer.from([0x80]), Buffer.from('"}')])
    expect((parser.fromChunks as NonNullable<typeof parser.fromChunks>)([malformed], malformed.length)).to.have.property('bad', '\uFFFD')
  })

  it('from chunks: small and empty bodies take the Buffer path with the same answers', () => {
    expect(fromChunks('{"a":1}', [3])).to.deep.equal({ a: 1 })
    expect(() => fromChunks('', [])).to.throw().with.property('code', 'ENC_ERR_CTP_EMPTY_JSON_BODY')
    expect(() => fromChunks('{"a":', [2])).to.throw().with.property('code', 'ENC_ERR_CTP_INVALID_JSON')
  })
})
