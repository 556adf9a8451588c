import 'reflect-metadata'
import { expect } from 'chai'
import { DecorateReply, DecorateRequest, Schema } from '../../src/decorators'
import { getReplyDecorators, getRequestDecorators, getSchemaMeta } from '../../src/decorators/internal'
import { declarationError } from './helpers'

// A reply decorator is declared before it is decorated (the name is checked against ReplyDecorations).
declare module '../../src/runtime' {
  interface ReplyDecorations { answer: string }
}

describe('@Schema', () => {
  it('records the shared schema on the class', () => {
    const schema = { $id: 'user', type: 'object' }
    @Schema(schema) class UserSchema {}
    expect(getSchemaMeta(UserSchema)).to.equal(schema)
  })

  it('§2.2 refuses a schema without a string $id at declaration, with a suggested id', () => {
    const error = declarationError(() => Schema({ type: 'object' } as never)(class ItemSchema {}))
    expect(error.code).to.equal('ENC_ERR_DECL_SCHEMA_ID')
    expect(error.message).to.contain('ItemSchema').and.contain("$id: 'itemSchema'")
    expect(declarationError(() => Schema({ $id: '' })(class Empty {})).code).to.equal('ENC_ERR_DECL_SCHEMA_ID')
  })
})

describe('@DecorateRequest and @DecorateReply', () => {
  it('stack, in source order, separately for requests and replies', () => {
    const factory = { factory: () => ({}) }
    @DecorateRequest('answer', 42)
    @DecorateRequest('user', factory)
    @DecorateReply('answer', 'reply')
    class Decorated {}
    expect(getRequestDecorators(Decorated)).to.deep.equal([{ name: 'answer', value: 42 }, { name: 'user', value: factory }])
    expect(getReplyDecorators(Decorated)).to.deep.equal([{ name: 'answer', value: 'reply' }])
  })

  it('refuses the same name twice on one class', () => {
    const error = declarationError(() => {
      @DecorateRequest('foo', 'one') @DecorateRequest('foo', 'two') class Twice {}
      return Twice
    })
    expect(error.code).to.equal('ENC_ERR_DECL_DECORATOR_DUPLICATE')
    expect(error.message).to.contain("@DecorateRequest('foo')").and.contain('Twice')
  })

  it('refuses an empty name', () => {
    expect(declarationError(() => DecorateReply('' as string, 1)(class A {})).code).to.equal('ENC_ERR_DECL_DECORATOR_NAME')
  })
})
