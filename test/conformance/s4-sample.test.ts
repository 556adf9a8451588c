// Spec §4 (no endpoints of its own) and §4.1 (the example application), shown through the sample
// (sample/sample-app.ts, built with createApp) in both variants: grandchild registered normally,
// and through the encapsulation-breaking wrapper.
import { expect } from 'chai'
import { buildSampleApp } from '../../sample/sample-app'
import { build, http, track } from './helpers'

const keys = ['abc123', 'second-key']

describe('conformance §4: endpoints', () => {
  it('§4-no-endpoints: the framework defines no HTTP endpoints of its own', async () => {
    const app = await build(() => undefined)
    for (const path of ['/', '/health', '/docs', '/metrics', '/openapi.json']) {
      await http(app).get(path).expect(404, { statusCode: 404, error: 'Not Found', message: `Route GET:${path} not found` })
    }
  })
})

describe('conformance §4.1: example application routes', () => {
  it('§4.1-row1-one: GET /one with a bearer token answers answer only; foo and bar are left out of the JSON', async () => {
    const app = track(await buildSampleApp({ keys, liftGrandchild: false }))
    const res = await http(app).get('/one').set('authorization', 'Bearer abc123').expect(200)
    expect(res.text).to.equal('{"answer":42}')
  })

  it('§4.1-row2-two: GET /two answers answer and foo; bar is left out', async () => {
    const app = track(await buildSampleApp({ keys, liftGrandchild: false }))
    const res = await http(app).get('/two').expect(200)
    expect(res.text).to.equal('{"answer":42,"foo":"foo"}')
  })

  it('§4.1-row3-three: GET /three answers answer, foo and bar', async () => {
    const app = track(await buildSampleApp({ keys, liftGrandchild: false }))
    const res = await http(app).get('/three').expect(200)
    expect(res.text).to.equal('{"answer":42,"foo":"foo","bar":"bar"}')
  })

  it('§4.1-types: answer is a number, foo and bar are strings', async () => {
    const app = track(await buildSampleApp({ keys, liftGrandchild: false }))
    const { body } = await http(app).get('/three').expect(200)
    expect([typeof body.answer, typeof body.foo, typeof body.bar]).to.deep.equal(['number', 'string', 'string'])
  })

  it('§4.1-lift-two: with the grandchild lifted, GET /two also answers bar', async () => {
    const app = track(await buildSampleApp({ keys, liftGrandchild: true }))
    const res = await http(app).get('/two').expect(200)
    expect(res.text).to.equal('{"answer":42,"foo":"foo","bar":"bar"}')
  })

  it('§4.1-lift-three: with the grandchild lifted, GET /three is unchanged (and /one too)', async () => {
    const app = track(await buildSampleApp({ keys, liftGrandchild: true }))
    expect((await http(app).get('/three').expect(200)).text).to.equal('{"answer":42,"foo":"foo","bar":"bar"}')
    expect((await http(app).get('/one').set('authorization', 'Bearer second-key').expect(200)).text).to.equal('{"answer":42}')
  })

  it('§4.1-one-no-token: GET /one without a token or with a wrong one (not shown) answers 401 with WWW-Authenticate: Bearer', async () => {
    const app = track(await buildSampleApp({ keys, liftGrandchild: false }))
    for (const authorization of [undefined, 'Bearer wrong', 'Basic abc123', 'abc123']) {
      const req = http(app).get('/one')
      if (authorization !== undefined) req.set('authorization', authorization)
      const res = await req.expect(401).expect('www-authenticate', 'Bearer')
      // Issue 11: the 401 carries its code, like every other error payload (the spec does not show this body).
      expect(res.body).to.have.all.keys('statusCode', 'code', 'error', 'message')
      expect(res.body).to.include({ statusCode: 401, code: 'ENC_ERR_AUTH_UNAUTHORIZED', error: 'Unauthorized' })
      expect(res.body.message).to.be.a('string').and.not.equal('')
    }
  })
})
