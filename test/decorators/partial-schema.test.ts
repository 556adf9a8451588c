import 'reflect-metadata'
import { expect } from 'chai'
import { Body, Module, Params, Patch, Route, SchemaClass, partialSchema } from '../../src'
import { createApp } from '../../src/modules'
import { declarationError } from './helpers'

class CreateBook extends SchemaClass({
  $id: 'createBook', type: 'object', required: ['title', 'isbn'], additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1 },
    isbn: { type: 'string', pattern: '^\\d{13}$' },
    tags: { type: 'array', items: { type: 'string' }, default: [] },
  },
}) {}
class BookId extends SchemaClass({ type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }) {}

describe('partialSchema() (NestJS PartialType)', () => {
  it('makes every property optional, keeps each one\'s validation, and drops $id and top-level defaults', () => {
    expect(partialSchema(CreateBook)).to.deep.equal({
      type: 'object', additionalProperties: false,
      properties: { title: { type: 'string', minLength: 1 }, isbn: { type: 'string', pattern: '^\\d{13}$' }, tags: { type: 'array', items: { type: 'string' } } },
    })
    expect(partialSchema(CreateBook.schema)).to.deep.equal(partialSchema(CreateBook))
    expect(CreateBook.schema.required).to.deep.equal(['title', 'isbn'])   // the source is left as it was
  })

  it('a PATCH body validated with it takes any subset of the fields, refuses a bad one, and is not filled with the source\'s defaults', async () => {
    class UpdateBook extends SchemaClass({ ...partialSchema(CreateBook), minProperties: 1 }) {}
    @Route('/books')
    class Books {
      @Patch('/:id') update(@Params() { id }: BookId, @Body() patch: UpdateBook) { return { id, patch } }
    }
    @Module({ controllers: [Books] }) class App {}
    const app = await createApp(App)
    try {
      const ok = await app.inject({ method: 'PATCH', url: '/books/1', payload: { title: 'New' } })
      expect(ok.json()).to.deep.equal({ id: 1, patch: { title: 'New' } })
      const bad = await app.inject({ method: 'PATCH', url: '/books/1', payload: { isbn: '12' } })
      expect(bad.statusCode).to.equal(400)
      expect((bad.json() as { message: string }).message).to.include('body/isbn')
      expect((await app.inject({ method: 'PATCH', url: '/books/1', payload: {} })).statusCode).to.equal(400)
    } finally { await app.close() }
  })

  it('refuses a schema without properties at declaration, naming partialSchema()', () => {
    const error = declarationError(() => partialSchema({ type: 'string' }))
    expect(error.code).to.equal('ENC_ERR_DECL_SCHEMA_CLASS')
    expect(error.message).to.include('partialSchema() takes a schema class or an object schema with properties')
  })
})
