import 'reflect-metadata'
import { expect } from 'chai'
import { Body, Get, Headers, Params, Query, Reply, Req } from '../../src/decorators'
import { getParams } from '../../src/decorators/internal'
import { declarationError } from './helpers'

describe('parameter decorators', () => {
  it('record source, property and position per handler, sorted by position', () => {
    class C {
      @Get('/:id')
      h(@Params('id') _id: string, @Query() _q: unknown, @Body('name') _n: unknown, @Headers('X-Trace') _t: string, @Req() _r: unknown, @Reply() _p: Reply) {}
    }
    expect(getParams(C, 'h')).to.deep.equal([
      { index: 0, source: 'params', key: 'id' },
      { index: 1, source: 'query', key: null },
      { index: 2, source: 'body', key: 'name' },
      { index: 3, source: 'headers', key: 'x-trace' },
      { index: 4, source: 'request', key: null },
      { index: 5, source: 'reply', key: null },
    ])
    expect(getParams(C, 'other')).to.deep.equal([])
  })

  it('refuse two decorators on one parameter', () => {
    const error = declarationError(() => { class D { @Get('/') h(@Body() @Query() _x: unknown) {} } return D })
    expect(error.code).to.equal('ENC_ERR_DECL_PARAM_DUPLICATE')
    expect(error.message).to.contain('parameter 0 of D.h')
  })

  it('refuse a constructor parameter', () => {
    const error = declarationError(() => (Body() as unknown as (t: object, k: undefined, i: number) => void)(class K {}, undefined, 0))
    expect(error.code).to.equal('ENC_ERR_DECL_TARGET')
    expect(error.message).to.contain('injected')
  })
})
