// esbuild (and tsx, tsup, vitest on vite 7 or older) emits no `design:paramtypes`, so
// `create(@Body() note: NewNote)` reaches Enclave as `create(@Body() note)`. The classes here are
// decorated the way esbuild's output does it, by calling the decorators: TypeScript emits no
// metadata for them either.
import 'reflect-metadata'
import { expect } from 'chai'
import { Body, Headers, Module, Post, Query, Route, SchemaClass } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { declarationError } from '../decorators/helpers'

class NewNote extends SchemaClass({ type: 'object', required: ['title'], additionalProperties: false, properties: { title: { type: 'string', minLength: 1 } } }) {}

/** A controller class with one method `create(note, reply)`, its first parameter decorated by `decorator`, built as esbuild builds it. */
function controllerWithout(decorator: ParameterDecorator, options?: object): new () => object {
  class Notes { create(note: unknown) { return note } }
  decorator(Notes.prototype, 'create', 0)
  Post('/', options)(Notes.prototype, 'create', Object.getOwnPropertyDescriptor(Notes.prototype, 'create')!)
  Route()(Notes)
  return Notes
}

describe('schema classes: a method built without decorator metadata (esbuild, tsx)', () => {
  it('refuses when the class is declared a @Body() parameter whose part has no schema: a schema class typing it could not be read, and the body would go unvalidated', () => {
    const error = declarationError(() => controllerWithout(Body()))
    expect(error.code).to.equal('ENC_ERR_DECL_PARAM_TYPES_UNREAD')
    expect(error.message).to.contain('parameter 0 (note) is @Body()').and.contain('the build tool emits no decorator metadata')
      .and.contain('schema: { body: TheClass }').and.contain('schema: { body: {} }').and.contain('docs/build-tools.md')
  })

  it('refuses a whole @Query() and @Headers() alike, naming the part', () => {
    expect(declarationError(() => controllerWithout(Query())).message).to.contain('is @Query() and the route gives the querystring no schema')
    expect(declarationError(() => controllerWithout(Headers())).message).to.contain('is @Headers() and the route gives the headers no schema')
  })

  it('validates with the schema class given in the route options instead', async () => {
    const Notes = controllerWithout(Body(), { schema: { body: NewNote } })
    class Root {}
    Module({ controllers: [Notes] })(Root)
    const app = await createApp(Root)
    expect((await app.inject({ method: 'POST', url: '/', payload: { nope: 1 } })).statusCode).to.equal(400)
    expect((await app.inject({ method: 'POST', url: '/', payload: { title: 't' } })).json()).to.deep.equal({ title: 't' })
    await app.close()
  })

  it('accepts any body said on purpose with schema: { body: {} }', async () => {
    const Notes = controllerWithout(Body(), { schema: { body: {} } })
    class Root {}
    Module({ controllers: [Notes] })(Root)
    const app = await createApp(Root)
    expect((await app.inject({ method: 'POST', url: '/', payload: { nope: 1 } })).json()).to.deep.equal({ nope: 1 })
    await app.close()
  })

  it('still accepts a whole @Body() without a schema on a method that has metadata (tsc): its type is known not to be a schema class', () => {
    @Route() class Raw { @Post('/') create(@Body() body: unknown) { return body } }
    expect(Raw).to.be.a('function')
  })
})
