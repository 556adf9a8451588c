// The non-finite coercion patch on ajv 6's generated code (finite-coercion.ts) is found with indexOf
// instead of a regular expression (session 19, boot time): the text it writes must be exactly the
// regular expression's, on the code ajv writes for real schemas and on the edge cases of `\b` and
// the back-reference.
import { expect } from 'chai'
import Ajv from 'ajv'
import { addFiniteChecks } from '../../src/runtime/schemas/finite-coercion'
import { baselineValidatorOptions } from '../../src/runtime/schemas/default-compilers'
import { bootApp } from '../../bench/boot/routes'

const REGEX = /\b(data\d*) == \+\1\b/g
const byRegex = (code: string): string => code.replace(REGEX, '$1 == +$1 && isFinite($1)')

/** ajv 6's code for each schema, with Enclave's baseline options (coerceTypes among them). */
function generated(schemas: readonly object[], shared: readonly object[] = []): string[] {
  const codes: string[] = []
  const ajv = new Ajv({ ...baselineValidatorOptions, processCode: (code: string) => { codes.push(code); return code } })
  for (const schema of shared) ajv.addSchema(schema)
  for (const schema of schemas) ajv.compile(schema)
  return codes
}

describe('finite coercion patch: indexOf finds what the regular expression found', () => {
  it("writes the regular expression's text for the code ajv 6 generates for the boot bench's schemas (both shapes) and the draft-07 meta-schema", () => {
    const distinct = bootApp(200, 'distinct')
    const shared = bootApp(200, 'shared')
    const codes = [
      ...generated(distinct.routes.map((r) => r.body)),
      ...generated(shared.routes.map((r) => r.body), shared.shared as object[]),
      ...generated([{ type: 'array', items: [{ type: 'integer' }, { type: 'number' }], additionalItems: { type: 'boolean' } },
        { type: 'object', properties: { a: { type: ['number', 'null'] }, b: { anyOf: [{ type: 'integer' }, { type: 'string' }] } } }]),
    ]
    let patched = 0
    for (const code of codes) {
      const expected = byRegex(code)
      if (expected !== code) patched++
      expect(addFiniteChecks(code)).to.equal(expected)
    }
    // The comparison is only worth something if the regular expression did patch most of them.
    expect(patched).to.be.greaterThan(100)
  })

  it('treats word boundaries, digits and the back-reference as the regular expression does', () => {
    const cases = [
      'if (data == +data) x', 'if (data1 == +data1) x', 'data12 == +data12', 'data1 == +data12;', 'data12 == +data1;',
      'mydata1 == +data1', '_data1 == +data1', '$data1 == +data1', 'data1 == +data1x', 'data1 == +data1_', 'data1 == +data1$',
      'xdata1data1 == +data1', 'data1 == +data1 == +data1', 'data1 == +data1data2 == +data2', ' == +data1', 'data1 == +',
      'a == +b; data3 == +data3; data4 == +data4 && data5 == +data5', 'data == +data', 'dat1 == +dat1', '1data1 == +data1', '',
      'data1 == +data1\ndata22 == +data22\n', 'data1== +data1', 'data1 == + data1',
    ]
    for (const code of cases) expect(addFiniteChecks(code), code).to.equal(byRegex(code))
  })
})
