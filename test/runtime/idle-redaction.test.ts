// The redaction fast path (src/runtime/server/idle-redaction.ts): a line whose redacted key holds
// nothing the paths name is serialized without pino 10's copy, and every line is the one pino's own
// redactor writes. docs/operations.md, "Logs": authorization and cookie are redacted under headers and req.headers.
import { expect } from 'chai'
import { Writable } from 'node:stream'
import pino from 'pino'
import { skipIdleRedaction } from '../../src/runtime/server/idle-redaction'
import { defaultRedactPaths } from '../../src/runtime/server/logger'
import { createServer } from '../../src/runtime'

function sink(): { stream: Writable; lines: string[] } {
  const lines: string[] = []
  const stream = new Writable({ write(chunk: Buffer, _encoding, done) { lines.push(...chunk.toString().split('\n').filter((l) => l !== '')); done() } })
  return { stream, lines }
}

/** The same lines through pino as it is and through pino with the fast path: they must not differ. */
function bothWays(redact: { paths: string[]; censor?: unknown; remove?: boolean }, log: (logger: pino.Logger) => void): { plain: string[]; fast: string[] } {
  const plain = sink()
  const fast = sink()
  const options = { level: 'info', base: null, timestamp: false, redact: redact as pino.LoggerOptions['redact'] }
  log(pino(options, plain.stream))
  const fastLogger = pino(options, fast.stream)
  skipIdleRedaction(fastLogger, redact.paths)
  log(fastLogger)
  return { plain: plain.lines, fast: fast.lines }
}

class Carrier { constructor(readonly method: string) {} }
class WithHeaders { readonly method = 'GET' }
Object.defineProperty(WithHeaders.prototype, 'headers', { value: { authorization: 'Bearer inherited' }, enumerable: false })

const values: Record<string, unknown> = {
  'plain, no headers': { method: 'GET', url: '/a', remotePort: 1 },
  'plain, with headers': { method: 'GET', headers: { authorization: 'Bearer s3cret', cookie: 'sid=abc', accept: 'x' } },
  'headers not an object': { headers: 'authorization' },
  'null prototype': Object.assign(Object.create(null), { method: 'GET', headers: { cookie: 'sid=abc' } }),
  'class instance': new Carrier('GET'),
  'inherited headers': new WithHeaders(),
  'own toJSON': { method: 'GET', toJSON: () => ({ headers: { authorization: 'Bearer from-toJSON' } }) },
  'toJSON answering undefined': { toJSON: () => undefined },
  array: [{ headers: { authorization: 'x' } }],
  'a string': 'GET /',
  'a number': 42,
  null: null,
  'a BigInt inside': { n: BigInt(1) },
}
const circular: Record<string, unknown> = { method: 'GET' }
circular.self = circular
values['a cycle'] = circular

const configs: Array<[string, { paths: string[]; censor?: unknown; remove?: boolean }]> = [
  ['the default paths', { paths: [...defaultRedactPaths] }],
  ['the default paths plus a bracketed one', { paths: [...defaultRedactPaths, 'headers["x-api-key"]', 'req["x-trace"]'] }],
  ['a whole key beside a deeper path', { paths: ['req.headers.cookie', 'req'] }],
  ['remove', { paths: [...defaultRedactPaths], remove: true }],
  ['a censor function', { paths: [...defaultRedactPaths], censor: (value: unknown, path: string[]) => `hidden ${path.join('.')} ${String(value).length}` }],
  ['a wildcard', { paths: ['*.authorization', 'req.headers.cookie'] }],
  ['a wildcard inside', { paths: ['req.*.cookie'] }],
]

describe('log redaction fast path: the same lines as pino 10 writes itself', () => {
  for (const [configName, redact] of configs) {
    it(`writes every value under req and headers as pino's redactor does, with ${configName}`, () => {
      const { plain, fast } = bothWays(redact, (logger) => {
        for (const [name, value] of Object.entries(values)) {
          logger.info({ req: value, name }, 'req')
          logger.info({ headers: value, name }, 'headers')
        }
      })
      expect(fast).to.have.length(Object.keys(values).length * 2)
      expect(fast).to.deep.equal(plain)
      const withHeaders = fast.map((line) => JSON.parse(line) as { name: string; msg: string; req?: { headers: unknown } }).find((line) => line.name === 'plain, with headers' && line.msg === 'req')
      if (configName === 'the default paths') expect(withHeaders?.req?.headers).to.deep.equal({ authorization: '[Redacted]', cookie: '[Redacted]', accept: 'x' })
    })
  }

  it('leaves a pino without the redactor table, or with no redaction, as it was', () => {
    const logger = pino({ level: 'info' }, sink().stream)
    const before = (logger as unknown as Record<symbol, unknown>)[pino.symbols.stringifiersSym]
    skipIdleRedaction(logger, [...defaultRedactPaths])
    expect((logger as unknown as Record<symbol, unknown>)[pino.symbols.stringifiersSym]).to.equal(before)
    expect(() => skipIdleRedaction({}, [...defaultRedactPaths])).to.not.throw()
  })

  it("writes the access lines of a server's own logger byte for byte as pino's redactor would, and still redacts the headers a handler logs", async () => {
    const out = sink()
    const app = createServer({ logger: { stream: out.stream, base: null, timestamp: false } })
    app.get('/u', (request) => { request.log.info({ headers: request.headers, req: { headers: request.headers } }, 'handler'); return {} })
    await app.inject({ url: '/u', headers: { authorization: 'Bearer s3cret', cookie: 'sid=abc', host: 'api.test' } })
    await app.close()
    const reference = sink()
    const plainPino = pino({ level: 'info', base: null, timestamp: false, redact: [...defaultRedactPaths] }, reference.stream)
    for (const line of out.lines) {
      const { level: _level, msg, ...fields } = JSON.parse(line) as Record<string, unknown>
      plainPino.info(fields, msg as string)
    }
    expect(out.lines.map((line) => JSON.parse(line).msg)).to.deep.equal(['incoming request', 'handler', 'request completed'])
    expect(out.lines).to.deep.equal(reference.lines)
    expect(out.lines.join('\n')).to.not.contain('s3cret').and.not.contain('sid=abc')
    expect(JSON.parse(out.lines[1]).headers).to.include({ authorization: '[Redacted]', cookie: '[Redacted]' })
  })
})
