// Two Content-Type headers on one request: Node keeps the first and drops the later ones (a
// Content-Type is a single value), so the first decides the parser, as in Fastify 3 and 5. A
// proxy in front that reads the last one would see another type than the app: pinned here so
// that a Node upgrade changing the rule shows up. (A list in one header, `application/json,
// text/plain`, is a 415: json-input.test.ts.)
import { expect } from 'chai'
import { listening, rawClient } from './helpers'

const BODY = '{"a":1}'

async function send(address: string, contentTypes: string[]): Promise<{ status: number; body: string }> {
  const client = await rawClient(address)
  const types = contentTypes.map((type) => `Content-Type: ${type}\r\n`).join('')
  client.write(`POST /echo HTTP/1.1\r\nHost: x\r\n${types}Content-Length: ${BODY.length}\r\nConnection: close\r\n\r\n${BODY}`)
  const response = await client.next()
  client.destroy()
  return response
}

describe('hardening: a request with two Content-Type headers', () => {
  it('the first one decides: JSON then text/plain is parsed as JSON, text/plain then JSON is read as text', async () => {
    const { address } = await listening((root) => {
      root.post('/echo', async (request) => ({ kind: typeof request.body, type: request.headers['content-type'] }))
    })
    const jsonFirst = await send(address, ['application/json', 'text/plain'])
    expect(jsonFirst.status).to.equal(200)
    expect(JSON.parse(jsonFirst.body)).to.deep.equal({ kind: 'object', type: 'application/json' })
    const textFirst = await send(address, ['text/plain', 'application/json'])
    expect(textFirst.status).to.equal(200)
    expect(JSON.parse(textFirst.body)).to.deep.equal({ kind: 'string', type: 'text/plain' })
  })

  it('a body schema still applies to what the first type made of the body: text/plain then JSON against an object schema is a 400', async () => {
    const { address } = await listening((root) => {
      root.post('/echo', { schema: { body: { type: 'object' } } }, async (request) => request.body)
    })
    const res = await send(address, ['text/plain', 'application/json'])
    expect(res.status).to.equal(400)
    expect(JSON.parse(res.body)).to.deep.equal({ statusCode: 400, error: 'Bad Request', message: 'body should be object' })
  })
})
