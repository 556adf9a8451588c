import { expect } from 'chai'
import { mediaTypeOf } from '../../src/runtime/shared/media-type'

describe('mediaTypeOf (the Content-Type a body parser is picked by)', () => {
  it('answers the JSON types clients send (taken without parsing) as it answers other spellings of them', () => {
    expect(mediaTypeOf('application/json')).to.equal('application/json')
    expect(mediaTypeOf('application/json; charset=utf-8')).to.equal('application/json')
    expect(mediaTypeOf('Application/JSON; charset=UTF-8')).to.equal('application/json')
    expect(mediaTypeOf(' application/json ;charset=utf-8')).to.equal('application/json')
    expect(mediaTypeOf('application/jsonx')).to.equal('application/jsonx')
    expect(mediaTypeOf('application/json\tx')).to.equal(null)
    expect(mediaTypeOf('text/plain; application/json')).to.equal('text/plain')
    expect(mediaTypeOf(undefined)).to.equal(null)
  })
})
