import 'reflect-metadata'
import { expect } from 'chai'
import { Get, Module, Route, SchemaClass } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { lift } from '../../src'
import { bootError } from '../modules/helpers'

class Book extends SchemaClass({ $id: 'book', type: 'object', properties: { title: { type: 'string' } } }) {}
class OtherBook extends SchemaClass({ $id: 'book', type: 'object', properties: { name: { type: 'string' } } }) {}

@Route('/b') class Books { @Get('/', { schema: { response: { 200: Book } } }) get() { return { title: 't', secret: 's' } } }

describe('shared schemas in a module app are spoken of in module terms (newcomer finding 5)', () => {
  it('a schema class with $id that no module lists: the boot error says to list it in @Module({ schemas }) of the module or an ancestor', async () => {
    @Module({ controllers: [Books] }) class M1 {}
    @Module({ plugins: [M1] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_SCHEMA_NOT_LISTED')
    expect(error.message).to.contain('Books.get in Root > M1').and.contain('response 200 schema is schema class Book')
      .and.contain("List Book in @Module({ schemas }) of M1 or an ancestor").and.not.contain('addSchema')
    expect((error as Error & { cause?: { code?: string } }).cause?.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
  })

  it('the same schema class listed in a module and in its ancestor is accepted (it is one schema)', async () => {
    @Module({ controllers: [Books], schemas: [Book] }) class AM {}
    @Module({ plugins: [AM], schemas: [Book] }) class Root {}
    const app = await createApp(Root)
    try {
      expect((await app.inject({ url: '/b' })).json()).to.deep.equal({ title: 't' })
    } finally { await app.close() }
  })

  it('two different schemas with one $id in a module and its ancestor are still refused', async () => {
    @Module({ controllers: [Books], schemas: [OtherBook] }) class AM {}
    @Module({ plugins: [AM], schemas: [Book] }) class Root {}
    expect((await bootError(Root)).code).to.equal('ENC_ERR_SCH_DUPLICATE_ID')
  })

  it('a schema class listed by a lifted shared module and again by a child (or the parent) is accepted, whichever is registered first', async () => {
    @Module({ schemas: [Book] }) class Shared {}
    @Module({ controllers: [Books], schemas: [Book], prefix: '/x' }) class BooksModule {}
    @Module({ plugins: [lift(Shared), BooksModule], schemas: [Book] }) class RootA {}
    @Module({ plugins: [BooksModule, lift(Shared)] }) class RootB {}
    for (const Root of [RootA, RootB]) {
      const app = await createApp(Root)
      try {
        expect((await app.inject({ url: '/x/b' })).json(), Root.name).to.deep.equal({ title: 't' })
      } finally { await app.close() }
    }
  })

  it('two different schemas with one $id: the message says they are different schema objects', async () => {
    @Module({ schemas: [OtherBook] }) class Shared {}
    @Module({ controllers: [Books], schemas: [Book], prefix: '/x' }) class BooksModule {}
    @Module({ plugins: [BooksModule, lift(Shared)] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_SCH_DUPLICATE_ID')
    expect(error.message).to.contain('different schema objects').and.contain('another $id')
  })
})
