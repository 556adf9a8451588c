import { expect } from 'chai'
import * as enclave from '../../src'
import * as runtime from '../../src/runtime'
import * as internal from '../../src/runtime/internal'

describe('architecture: internal helpers stay off the public surface (issue 11)', () => {
  it('isLifted and liftedTarget are on the internal entry the modules layer imports, not on src/index.ts', () => {
    expect(internal.isLifted).to.be.a('function')
    expect(internal.liftedTarget).to.be.a('function')
    for (const surface of [enclave, runtime]) {
      expect(surface).to.not.have.property('isLifted')
      expect(surface).to.not.have.property('liftedTarget')
      expect(surface.lift).to.be.a('function')
    }
  })
})
