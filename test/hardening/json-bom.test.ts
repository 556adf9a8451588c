// A JSON body that starts with a byte-order mark (as some Windows tools write it): Fastify 3's
// secure-json-parse drops the mark, so every onProtoPoisoning / onConstructorPoisoning setting
// must too. Found by the "hostile" brief: with both actions 'ignore' (plain JSON.parse) such a
// body was refused 400 while the other settings accepted it.
import { expect } from 'chai'
import { expectErrorShape, listening, rawRequest } from './helpers'
type PoisonAction = 'error' | 'remove' | 'ignore'

const BOM = '\ufeff'

function post(body: string): string {
  return `POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}

describe('hardening: a JSON body with a leading byte-order mark', () => {
  for (const action of [undefined, 'error', 'remove', 'ignore'] as Array<PoisonAction | undefined>) {
    const options = action === undefined ? {} : { onProtoPoisoning: action, onConstructorPoisoning: action }
    it(`is parsed without the mark (poisoning actions: ${action ?? 'default'})`, async () => {
      const { address } = await listening((root) => { root.post('/echo', async (request) => ({ body: request.body })) }, options)
      const res = await rawRequest(address, post(`${BOM}{"a":1}`))
      expect(res.status).to.equal(200)
      expect(JSON.parse(res.body)).to.deep.equal({ body: { a: 1 } })
    })
  }

  it('a mark alone is still invalid JSON: 400 ENC_ERR_CTP_INVALID_JSON', async () => {
    const { address } = await listening((root) => { root.post('/echo', async (request) => ({ body: request.body })) }, { onProtoPoisoning: 'ignore', onConstructorPoisoning: 'ignore' })
    const res = await rawRequest(address, post(BOM))
    expect(res.status).to.equal(400)
    expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_CTP_INVALID_JSON')
  })

  for (const action of [undefined, 'ignore'] as Array<PoisonAction | undefined>) {
    it(`a second mark is invalid JSON, as in Fastify 3: 400 ENC_ERR_CTP_INVALID_JSON (poisoning actions: ${action ?? 'default'})`, async () => {
      const options = action === undefined ? {} : { onProtoPoisoning: action, onConstructorPoisoning: action }
      const { address } = await listening((root) => { root.post('/echo', async (request) => ({ body: request.body })) }, options)
      const res = await rawRequest(address, post(`${BOM}${BOM}{"a":1}`))
      expect(res.status).to.equal(400)
      expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_CTP_INVALID_JSON')
    })
  }

  it('the mark does not hide a __proto__ key from the default check', async () => {
    const { address } = await listening((root) => { root.post('/echo', async (request) => ({ body: request.body })) })
    const res = await rawRequest(address, post(`${BOM}{"__proto__":{"x":1}}`))
    expect(res.status).to.equal(400)
    expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_CTP_FORBIDDEN_PROTO')
  })
})
