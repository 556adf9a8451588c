import { expect } from 'chai'
import { join } from 'node:path'
import fastJson from 'fast-json-stringify'
import { errorPayloadSerializer, notFoundPayloadSerializer } from '../../src/runtime/serve/error-payload'
import { errorPayloadSchema, notFoundPayloadSchema } from '../../src/runtime/serve/error-payload-schemas'
import { ERROR_PAYLOAD_CODE, NOT_FOUND_PAYLOAD_CODE } from '../../src/runtime/serve/error-payload-code'

const ROOT = join(__dirname, '..', '..', '..')
// eslint-disable-next-line @typescript-eslint/no-require-imports
const generator = require(join(ROOT, 'scripts', 'error-payload-code.js')) as { source(): string }

// The error bodies' serializers are fast-json-stringify's code generated ahead (coldstart14), so
// requiring Enclave compiles nothing: they must stay what fast-json-stringify builds.
describe('error payload serializers generated ahead (error-payload-code.ts)', () => {
  it('the embedded code is what fast-json-stringify generates for the schemas now (else: npm run error-payload:code)', () => {
    expect(ERROR_PAYLOAD_CODE).to.equal(fastJson(errorPayloadSchema as never, { mode: 'standalone' }))
    expect(NOT_FOUND_PAYLOAD_CODE).to.equal(fastJson(notFoundPayloadSchema as never, { mode: 'standalone' }))
    expect(generator.source()).to.include(JSON.stringify(ERROR_PAYLOAD_CODE))
  })

  it('serializes every payload as the compiled fast-json-stringify serializer does', () => {
    const compiledError = fastJson(errorPayloadSchema as never)
    const compiledNotFound = fastJson(notFoundPayloadSchema as never)
    const payloads: unknown[] = [
      { statusCode: 404, error: 'Not Found', message: 'Route GET:/"\u2028\\<x> not found' },
      { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body/n should be integer' },
      { statusCode: 422.7, code: null, error: 12, message: new Date(0), details: { a: [1, { b: '\u0000' }], skip: undefined, fn: () => 1 } },
      { statusCode: '500', message: /re"gex/, details: null },
      { statusCode: 418, details: { toJSON: () => ({ x: 1 }) } },
      {},
    ]
    for (const payload of payloads) {
      expect(errorPayloadSerializer(payload)).to.equal(compiledError(payload))
      expect(notFoundPayloadSerializer(payload)).to.equal(compiledNotFound(payload))
    }
  })
})
