import { expect } from 'chai'
import { isIntegerKey, isRangeKey, isStatusKey } from '../../src/runtime/schemas/status-keys'
import { normalizeRouteSchema } from '../../src/runtime/schemas/route-schema'

// Issue 16: these read response keys without regular expressions (V8 compiles one to machine code
// on its second run, which a lazy app's second route to be requested pays for). They must read
// every key exactly as the expressions they replace did.
const STATUS = /^[1-5]\d\d$/
const RANGE = /^[1-5]xx$/i
const INTEGER = /^(0|[1-9]\d*)$/

/** Every string of up to four characters over an alphabet of digits, x, and look-alikes. */
function keys(): string[] {
  const alphabet = ['0', '1', '2', '5', '6', '9', 'x', 'X', 'a', ' ', '\n', '-', '\u0663', '+']
  const out = ['']
  let level = ['']
  for (let length = 1; length <= 4; length++) {
    level = level.flatMap((prefix) => alphabet.map((c) => prefix + c))
    out.push(...level)
  }
  return [...out, '12345678901234567890', '4294967295', '007', '200\n', '\n200', '2xx ', '__proto__', 'default']
}

describe('response keys are read without regular expressions, exactly as before (issue 16)', () => {
  it('a status key is three digits, the first 1-5, as /^[1-5]\\d\\d$/ read it', () => {
    for (const key of keys()) expect(isStatusKey(key), JSON.stringify(key)).to.equal(STATUS.test(key))
  })

  it('a range key is 1xx-5xx in either case, as /^[1-5]xx$/i read it', () => {
    for (const key of keys()) expect(isRangeKey(key), JSON.stringify(key)).to.equal(RANGE.test(key))
  })

  it('an integer key is a canonical non-negative integer, as /^(0|[1-9]\\d*)$/ read it', () => {
    for (const key of keys()) expect(isIntegerKey(key), JSON.stringify(key)).to.equal(INTEGER.test(key))
  })

  it('normalization still keeps status keys, lower-cases ranges and refuses anything else', () => {
    const route = { method: 'GET', url: '/r', scopePath: 'root' }
    const part = { type: 'object' }
    expect(Object.keys(normalizeRouteSchema({ response: { 200: part, '4XX': part, default: part } }, route).response!)).to.deep.equal(['200', '4xx', 'default'])
    for (const bad of ['600', '20', '2000', '6xx', 'ok', ' 200']) {
      expect(() => normalizeRouteSchema({ response: { [bad]: part } }, route), bad).to.throw().with.property('code', 'ENC_ERR_SCH_RESPONSE_KEY')
    }
  })
})
