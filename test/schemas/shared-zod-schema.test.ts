import 'reflect-metadata'
import { expect } from 'chai'
import { z } from 'zod'
import { Module } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { createServer } from '../../src/runtime'

// A zod schema given where shared schemas go (addSchema(), @Module({ schemas })): shared schemas
// are what routes reference with $ref, JSON Schema only. Refused with the code route schemas use
// (ENC_ERR_SCH_FOREIGN_SCHEMA), naming both fixes; it read before as a missing $id, or, given an
// $id, was kept and its own keys read as JSON Schema.
async function refusal(declare: () => Promise<unknown>): Promise<Error & { code?: string }> {
  try { await declare() } catch (error) { return error as Error & { code?: string } }
  throw new Error('expected a refusal')
}
const Pet = z.object({ name: z.string() })

describe('a zod schema as a shared schema is refused at boot naming the fix (addSchema, @Module schemas)', () => {
  it("addSchema(zodSchema), with or without an $id: ENC_ERR_SCH_FOREIGN_SCHEMA naming z.toJSONSchema(schema, { target: 'draft-7' }) and the zod compilers", async () => {
    for (const schema of [Pet, Object.assign(z.object({ name: z.string() }), { $id: 'Pet' })]) {
      const app = createServer()
      const error = await refusal(async () => { app.addSchema(schema as never); await app.ready() })
      expect(error.code).to.equal('ENC_ERR_SCH_FOREIGN_SCHEMA')
      expect(error.message).to.include('addSchema()').and.include('zod').and.include("z.toJSONSchema(schema, { target: 'draft-7' })").and.include('validatorCompiler')
      await app.close()
    }
  })
  it("a JSON Schema made from it with z.toJSONSchema(schema, { target: 'draft-7' }) and an $id is taken (the fix the message names)", async () => {
    const app = createServer()
    app.addSchema({ ...z.toJSONSchema(Pet, { target: 'draft-7' }), $id: 'Pet' })
    app.post('/pets', { schema: { body: { $ref: 'Pet#' } } }, async (request) => request.body)
    try {
      expect((await app.inject({ method: 'POST', url: '/pets', payload: { name: 'Rex' } })).json()).to.deep.equal({ name: 'Rex' })
      expect((await app.inject({ method: 'POST', url: '/pets', payload: {} })).statusCode).to.equal(400)
    } finally { await app.close() }
  })
  it('@Module({ schemas: [zodSchema] }): the same code at boot, not the generic entry error', async () => {
    @Module({ schemas: [Pet as never] }) class PetsModule {}
    const error = await refusal(async () => { const app = await createApp(PetsModule); await app.close() })
    expect(error.code).to.equal('ENC_ERR_SCH_FOREIGN_SCHEMA')
  })
})
