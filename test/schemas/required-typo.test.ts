// `required: ['titel']` beside `properties: { title }` is valid JSON Schema, so ajv refused every
// request ("should have required property 'titel'") and nothing said the schema was wrong. A
// required name that is a likely typo of a declared property fails boot with
// ENC_ERR_SCH_REQUIRED_UNDECLARED and a did-you-mean; a required name unrelated to every property stays legal.
import { expect } from 'chai'
import { createServer } from '../../src'

async function boot(body: object): Promise<(Error & { code?: string }) | null> {
  const app = createServer()
  app.post('/notes', { schema: { body: body as never } }, async (request) => request.body)
  try { await app.ready(); return null } catch (error) { return error as Error & { code?: string } } finally { await app.close() }
}

describe('schemas: a required name that misspells a declared property fails boot (ENC_ERR_SCH_REQUIRED_UNDECLARED)', () => {
  it("required: ['titel'] beside properties.title: names the route, the name, the pointer and 'title'", async () => {
    const error = await boot({ type: 'object', properties: { title: { type: 'string' } }, required: ['titel'] })
    expect(error?.code).to.equal('ENC_ERR_SCH_REQUIRED_UNDECLARED')
    expect(error?.message).to.include("required lists 'titel' at '/required'")
    expect(error?.message).to.include("(did you mean 'title'?)")
    expect(error?.message).to.include('POST /notes')
  })

  it('a nested object schema and a difference of case are found too', async () => {
    const nested = await boot({ type: 'object', properties: { author: { type: 'object', properties: { email: { type: 'string' } }, required: ['emial'] } } })
    expect(nested?.message).to.include("required lists 'emial' at '/properties/author/required'")
    expect((await boot({ type: 'object', properties: { id: { type: 'integer' } }, required: ['ID'] }))?.code).to.equal('ENC_ERR_SCH_REQUIRED_UNDECLARED')
  })

  it('still boots: a required name unrelated to every property, short names one edit apart, patternProperties, both names declared', async () => {
    expect(await boot({ type: 'object', properties: { title: { type: 'string' } }, required: ['title', 'createdBy'] })).to.equal(null)
    expect(await boot({ type: 'object', properties: { x: { type: 'number' } }, required: ['y'] })).to.equal(null)
    expect(await boot({ type: 'object', properties: { title: { type: 'string' } }, patternProperties: { '^tit': {} }, required: ['titel'] })).to.equal(null)
    expect(await boot({ type: 'object', properties: { title: { type: 'string' }, titel: { type: 'string' } }, required: ['titel'] })).to.equal(null)
  })

  it('still boots where another keyword of the node may describe the name: an allOf branch, an additionalProperties schema, anyOf, if/then, dependencies', async () => {
    const described: object[] = [
      { type: 'object', properties: { title: { type: 'string' } }, required: ['titles'], allOf: [{ properties: { titles: { type: 'array' } } }] },
      { type: 'object', properties: { tag: { type: 'string' } }, additionalProperties: { type: 'array' }, required: ['tags'] },
      { type: 'object', properties: { title: { type: 'string' } }, required: ['titles'], anyOf: [{ properties: { titles: { type: 'array' } } }, { required: ['title'] }] },
      { type: 'object', properties: { title: { type: 'string' } }, required: ['titles'], if: { required: ['title'] }, then: { properties: { titles: { type: 'array' } } } },
      { type: 'object', properties: { title: { type: 'string' } }, required: ['titles'], dependencies: { title: { properties: { titles: { type: 'array' } } } } },
    ]
    for (const schema of described) expect(await boot(schema), JSON.stringify(schema)).to.equal(null)
  })
})
