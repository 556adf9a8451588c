import { expect } from 'chai'
import request from 'supertest'
import type { Scope } from '../../src/runtime'
import { buildSampleApp } from '../../sample/sample-app'

const keys = ['first-key', 'second-key']

describe('sample: the example application of §4.1', () => {
  describe('grandchild registered normally', () => {
    let app: Scope
    before(async () => { app = await buildSampleApp({ keys, liftGrandchild: false }) })
    after(() => app.close())

    it('§4.1 GET /one with a valid token answers only the root decorator', async () => {
      await request(app.server).get('/one').set('authorization', 'Bearer first-key').expect(200, { answer: 42 })
    })
    it('§4.1 GET /two answers answer and foo; bar is not visible there', async () => {
      await request(app.server).get('/two').expect(200, { answer: 42, foo: 'foo' })
    })
    it('§4.1 GET /three answers answer, foo and bar', async () => {
      await request(app.server).get('/three').expect(200, { answer: 42, foo: 'foo', bar: 'bar' })
    })
    it('§3.3.6 an invisible decorator is left out of the JSON, not sent as null', async () => {
      const res = await request(app.server).get('/two').expect(200)
      expect(res.text).to.equal('{"answer":42,"foo":"foo"}')
    })
    it('names the scopes after the module classes', () => {
      expect(app.path).to.equal('AppModule')
    })
  })

  describe('grandchild registered through lift()', () => {
    let app: Scope
    before(async () => { app = await buildSampleApp({ keys, liftGrandchild: true }) })
    after(() => app.close())

    it('§4.1 GET /two also answers bar', async () => {
      await request(app.server).get('/two').expect(200, { answer: 42, foo: 'foo', bar: 'bar' })
    })
    it('§4.1 GET /three is unchanged', async () => {
      await request(app.server).get('/three').expect(200, { answer: 42, foo: 'foo', bar: 'bar' })
    })
    it('§4.1 GET /one is unchanged', async () => {
      await request(app.server).get('/one').set('authorization', 'Bearer second-key').expect(200, { answer: 42 })
    })
  })

  describe('§5 GET /one without a valid token', () => {
    let app: Scope
    before(async () => { app = await buildSampleApp({ keys, liftGrandchild: false }) })
    after(() => app.close())

    const unauthorized = (res: request.Response) => {
      expect(res.headers['www-authenticate']).to.equal('Bearer')
      expect(res.body).to.include({ statusCode: 401, error: 'Unauthorized' })
      expect(res.body.message).to.be.a('string')
      expect(res.body).to.not.have.property('answer')
    }

    it('answers 401 when the header is missing', async () => {
      unauthorized(await request(app.server).get('/one').expect(401))
    })
    it('answers 401 for a wrong token', async () => {
      unauthorized(await request(app.server).get('/one').set('authorization', 'Bearer first-kez').expect(401))
    })
    it('answers 401 for a prefix of a valid token and for a longer one', async () => {
      unauthorized(await request(app.server).get('/one').set('authorization', 'Bearer first').expect(401))
      unauthorized(await request(app.server).get('/one').set('authorization', 'Bearer first-key-and-more').expect(401))
    })
    it('answers 401 for another scheme carrying a valid key', async () => {
      unauthorized(await request(app.server).get('/one').set('authorization', 'Basic first-key').expect(401))
      unauthorized(await request(app.server).get('/one').set('authorization', 'first-key').expect(401))
    })
    it('§5.3 leaves the sibling and its child open', async () => {
      await request(app.server).get('/two').expect(200)
      await request(app.server).get('/three').expect(200)
    })
  })
})
