import { expect } from 'chai'
import request from 'supertest'
import type { Scope } from '../../src/runtime'
import { buildSampleApp } from '../../sample/sample-app'

describe('sample: the catalog showcase', () => {
  let app: Scope
  beforeEach(async () => { app = await buildSampleApp({ keys: ['k'], liftGrandchild: false }) })
  afterEach(() => app.close())

  describe('POST /items', () => {
    const cup = { name: 'Cup', price: 3, sku: 'CUP-0001', tags: ['kitchen'], supplierCost: 1 }

    it('§1.6 creates the item and leaves the secret supplierCost out of the answer', async () => {
      const res = await request(app.server).post('/items').send(cup).expect(201)
      expect(res.body).to.deep.equal({ id: 3, name: 'Cup', price: 3, sku: 'CUP-0001', tags: ['kitchen'] })
    })
    it('§2.7 removes properties the body schema does not list', async () => {
      await request(app.server).post('/items').send({ ...cup, colour: 'red' }).expect(201)
      const res = await request(app.server).get('/items/3').expect(200)
      expect(res.body).to.not.have.property('colour')
    })
    it('§2.4 answers 400 for a missing required property', async () => {
      await request(app.server).post('/items').send({ price: 3 })
        .expect(400, { statusCode: 400, error: 'Bad Request', message: "body should have required property 'name'" })
    })
    it('§2.3 validates through catalog#sku (a named subschema of a shared schema)', async () => {
      const res = await request(app.server).post('/items').send({ ...cup, sku: 'bad' }).expect(400)
      expect(res.body.message).to.match(/^body\/sku should match pattern/)
    })
    it('a price sent as the string "Infinity" is a 400, and no item with a null price is stored', async () => {
      await request(app.server).post('/items').send({ name: 'Inf', price: 'Infinity' })
        .expect(400, { statusCode: 400, error: 'Bad Request', message: 'body/price should be number' })
      const res = await request(app.server).get('/items').expect(200)
      expect(res.body.total).to.equal(2)
    })
    it('§2.3 validates through catalog#/definitions/tag and catalog#/properties/name', async () => {
      expect((await request(app.server).post('/items').send({ ...cup, tags: [''] }).expect(400)).body.message).to.contain('body/tags/0')
      expect((await request(app.server).post('/items').send({ ...cup, name: '' }).expect(400)).body.message).to.contain('body/name')
    })
  })

  describe('GET /items', () => {
    it('answers the list through the item# root reference, without supplierCost', async () => {
      const res = await request(app.server).get('/items').expect(200)
      expect(res.body.total).to.equal(2)
      expect(res.body.items[0]).to.deep.equal({ id: 1, name: 'Kettle', price: 25, sku: 'KIT-0001', tags: ['kitchen'] })
      expect(res.body.items[1]).to.not.have.property('supplierCost')
    })
    it('§3.2 coerces limit and offset (a #/definitions/<name> local reference) to integers', async () => {
      const res = await request(app.server).get('/items?limit=1&offset=1').expect(200)
      expect(res.body).to.deep.equal({ total: 2, items: [{ id: 2, name: 'Lamp', price: 40, tags: ['living', 'light'] }] })
    })
    it('§2.7 filters by an array parameter given twice', async () => {
      const res = await request(app.server).get('/items?tags=living&tags=light').expect(200)
      expect(res.body.items.map((i: { id: number }) => i.id)).to.deep.equal([2])
    })
    it('§2.7 refuses a single value for the array parameter under default options', async () => {
      await request(app.server).get('/items?tags=living')
        .expect(400, { statusCode: 400, error: 'Bad Request', message: 'querystring/tags should be array' })
    })
    it('§2.7 refuses a value outside the bounds of limit', async () => {
      const res = await request(app.server).get('/items?limit=0').expect(400)
      expect(res.body.message).to.contain('querystring/limit')
    })
  })

  describe('GET /items/:id', () => {
    it('coerces the id parameter and answers the item', async () => {
      await request(app.server).get('/items/2').expect(200, { id: 2, name: 'Lamp', price: 40, tags: ['living', 'light'] })
    })
    it('answers 400 for an id that is not an integer', async () => {
      await request(app.server).get('/items/x').expect(400, { statusCode: 400, error: 'Bad Request', message: 'params/id should be integer' })
    })
    it('answers 404 for an unknown id', async () => {
      await request(app.server).get('/items/99').expect(404, { statusCode: 404, error: 'Not Found', message: 'No item with id 99' })
    })
  })

  describe('POST /items/check (attachValidation)', () => {
    it('§3.1.3 runs the handler with request.validationError set', async () => {
      await request(app.server).post('/items/check').send({ price: -1, name: 'x' })
        .expect(200, { valid: false, message: 'body/price should be >= 0', validationContext: 'body' })
    })
    it('runs the handler with no validationError for a valid body', async () => {
      await request(app.server).post('/items/check').send({ price: 1, name: 'x' }).expect(200, { valid: true })
    })
  })

  describe('POST /orders (a module with its own error handler)', () => {
    it('§7 answers validation failures with the status the error handler chooses: 422', async () => {
      await request(app.server).post('/orders').send({ itemId: 1 }).expect(422, {
        statusCode: 422, error: 'Unprocessable Entity', message: "body should have required property 'quantity'", validationContext: 'body',
      })
    })
    it('passes other errors to the next handler up (404 for an unknown item)', async () => {
      await request(app.server).post('/orders').send({ itemId: 99, quantity: 1 }).expect(404)
    })
    it('uses the item store shared with /items (one provider instance per app)', async () => {
      const created = await request(app.server).post('/items').send({ name: 'Mug', price: 4 }).expect(201)
      const res = await request(app.server).post('/orders').send({ itemId: created.body.id, quantity: 3 }).expect(201)
      expect(res.body).to.include({ itemId: created.body.id, quantity: 3, total: 12 })
    })
    it('leaves the other modules on the default 400', async () => {
      await request(app.server).post('/items').send({}).expect(400)
    })
  })
})
