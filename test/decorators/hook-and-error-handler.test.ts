import 'reflect-metadata'
import { expect } from 'chai'
import { ErrorHandler, Hook } from '../../src/decorators'
import { getErrorHandlerKey, getHooks } from '../../src/decorators/internal'
import { declarationError } from './helpers'

describe('@Hook and @ErrorHandler', () => {
  it('record hook methods in source order, several names per method allowed', () => {
    class Hooked {
      @Hook('onRequest') first() {}
      @Hook('preHandler') @Hook('onSend') second() {}
    }
    expect(getHooks(Hooked).map((h) => [h.name, h.propertyKey])).to.deep.members([
      ['onRequest', 'first'], ['preHandler', 'second'], ['onSend', 'second']])
    expect(getHooks(Hooked)[0]).to.deep.equal({ name: 'onRequest', propertyKey: 'first' })
  })

  it('refuses an unknown hook name', () => {
    const error = declarationError(() => { class H { @Hook('beforeHandler' as never) h() {} } return H })
    expect(error.code).to.equal('ENC_ERR_DECL_HOOK_NAME')
    expect(error.message).to.contain('H.h').and.contain('preHandler')
  })

  it('refuses a static hook', () => {
    expect(declarationError(() => { class H { @Hook('onRequest') static h() {} } return H }).code).to.equal('ENC_ERR_DECL_STATIC_MEMBER')
  })

  it('records the error handler method', () => {
    class Handled { @ErrorHandler() onError() {} }
    expect(getErrorHandlerKey(Handled)).to.equal('onError')
  })

  it('refuses a second @ErrorHandler on one class, naming both methods', () => {
    const error = declarationError(() => {
      class Two { @ErrorHandler() a() {} @ErrorHandler() b() {} }
      return Two
    })
    expect(error.code).to.equal('ENC_ERR_DECL_ERROR_HANDLER_DUPLICATE')
    expect(error.message).to.contain('Two.b').and.contain("'a'")
  })
})
