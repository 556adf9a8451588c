// @fastify/multipart's parser (@fastify/busboy) reports the client's malformed bytes as plain
// Errors without a status: Enclave answers them 400 ENC_ERR_MULTIPART_MALFORMED (serve/multipart-parse-error.ts).
import { expect } from 'chai'
import multipart from '@fastify/multipart'
import { expectErrorShape, listening, rawClient } from './helpers'

describe('hardening: multipart bodies its parser cannot read', () => {
  it('a multipart body cut short is 400 ENC_ERR_MULTIPART_MALFORMED with the parser\'s reason, and the connection serves the next request', async () => {
    const { app, address } = await listening((root) => {
      void root.register(multipart)
      root.post('/upload', async (request) => {
        const file = await (request as unknown as { file: () => Promise<{ toBuffer: () => Promise<Buffer> } | undefined> }).file()
        return { size: file === undefined ? 0 : (await file.toBuffer()).length }
      })
      root.get('/next', async () => ({ next: true }))
    })
    const body = '--XyZ\r\nContent-Disposition: form-data; name="doc"; filename="a.txt"\r\n\r\nhel'
    const client = await rawClient(address)
    client.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: ${body.length}\r\n\r\n${body}`)
    const res = await client.next()
    expect(res.status).to.equal(400)
    const parsed = expectErrorShape(res.body, 400)
    expect(parsed.code).to.equal('ENC_ERR_MULTIPART_MALFORMED')
    expect(parsed.message).to.equal('The multipart body is malformed: Part terminated early due to unexpected end of multipart data')
    client.write('GET /next HTTP/1.1\r\nHost: x\r\n\r\n')
    expect((await client.next()).status).to.equal(200)
    client.destroy()
    await app.close()
  })

  it('an application error that merely carries the same message is still a 500 (only the parser\'s own errors are mapped)', async () => {
    const { app, address } = await listening((root) => {
      root.get('/own', async () => { throw new Error('Unexpected end of multipart data') })
    })
    const client = await rawClient(address)
    client.write('GET /own HTTP/1.1\r\nHost: x\r\n\r\n')
    const res = await client.next()
    expect(res.status).to.equal(500)
    expect(JSON.parse(res.body).code).to.equal(undefined)
    client.destroy()
    await app.close()
  })
})
