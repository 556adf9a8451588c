// reply.writeEarlyHints() (Fastify 5's) checks what Node's res.writeEarlyHints() leaves to the
// caller: the head already written, an HTTP/1.0 client, the other hints' values, and a callback
// Node drops when there is no link to send. Over raw sockets: the bytes on the wire are the point.
import { expect } from 'chai'
import net from 'node:net'
import type { Scope } from '../../src/runtime'
import { build } from './helpers'

/** What the server writes for one request, until it closes the connection (bounded: 2 s). */
function exchange(app: Scope, head: string): Promise<string> {
  const { port } = app.server.address() as { port: number }
  return new Promise((resolve, reject) => {
    let out = ''
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head))
    const timer = setTimeout(() => { socket.destroy(); resolve(`${out}[no end]`) }, 2000)
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => { out += chunk })
    socket.on('close', () => { clearTimeout(timer); resolve(out) })
    socket.on('error', reject)
  })
}

const get = (path: string, version = '1.1'): string => `GET ${path} HTTP/${version}\r\nHost: localhost\r\nConnection: close\r\n\r\n`
const LINK = '</a.css>; rel=preload; as=style'

async function listening(declare: (root: Scope) => void): Promise<Scope> {
  const app = await build(declare, { logger: false })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return app
}

describe('reply.writeEarlyHints()', () => {
  it('is ignored once the response head is written (after send, after hijack), so no 103 lands inside the body', async () => {
    const app = await listening((root) => {
      root.get('/sent', (_req, reply) => { reply.send('done'); reply.writeEarlyHints({ link: LINK }) })
      root.get('/hijacked', (_req, reply) => {
        reply.hijack()
        reply.raw.writeHead(200, { 'content-type': 'text/plain' })
        reply.raw.write('a')
        reply.writeEarlyHints({ link: LINK })
        reply.raw.end('b')
      })
    })
    const sent = await exchange(app, get('/sent'))
    expect(sent).to.match(/^HTTP\/1\.1 200 OK\r\n/).and.match(/\r\n\r\ndone$/)
    const hijacked = await exchange(app, get('/hijacked'))
    expect(hijacked).to.match(/^HTTP\/1\.1 200 OK\r\n/).and.not.include('103')
  })

  it('sends no 103 to an HTTP/1.0 client (RFC 9110: no 1xx to HTTP/1.0), and still calls back', async () => {
    const app = await listening((root) => {
      root.get('/page', async (_req, reply) => {
        await new Promise<void>((resolve) => reply.writeEarlyHints({ link: LINK }, resolve))
        return 'page'
      })
    })
    const old = await exchange(app, get('/page', '1.0'))
    expect(old).to.match(/^HTTP\/1\.1 200 OK\r\n/).and.match(/page$/)
    const current = await exchange(app, get('/page'))
    expect(current).to.match(/^HTTP\/1\.1 103 Early Hints\r\nLink: <\/a\.css>; rel=preload; as=style\r\n\r\nHTTP\/1\.1 200 OK\r\n/)
  })

  it('calls back when there is no link to send (Node drops the callback), so awaiting it does not hang the request', async () => {
    const app = await listening((root) => {
      root.get('/none', async (_req, reply) => {
        await new Promise<void>((resolve) => reply.writeEarlyHints({ 'x-hint': 'a' }, resolve))
        await new Promise<void>((resolve) => reply.writeEarlyHints({ link: [] }, resolve))
        return 'answered'
      })
      root.get('/capital', async (_req, reply) => {
        await new Promise<void>((resolve) => reply.writeEarlyHints({ Link: LINK }, resolve))
        return 'answered'
      })
    })
    expect(await exchange(app, get('/none'))).to.match(/^HTTP\/1\.1 200 OK\r\n/).and.match(/answered$/)
    expect((await app.inject('/none')).body).to.equal('answered')
    // Header names are case-insensitive: `Link` is the link hint.
    expect(await exchange(app, get('/capital'))).to.match(/^HTTP\/1\.1 103 Early Hints\r\nLink: </).and.match(/answered$/)
  })

  it('calls back when the client has closed the connection (Node drops the callback there too)', async () => {
    let answered: (outcome: string) => void = () => {}
    const outcome = new Promise<string>((resolve) => { answered = resolve })
    const app = await listening((root) => {
      root.get('/gone', async (_req, reply) => {
        if (!reply.raw.destroyed) await new Promise((resolve) => reply.raw.once('close', resolve))
        await new Promise<void>((resolve) => reply.writeEarlyHints({ link: LINK }, resolve))
        answered('called back')
        return 'nobody reads this'
      })
    })
    const { port } = app.server.address() as { port: number }
    const socket = net.connect(port, '127.0.0.1', () => socket.end(get('/gone').replace('Connection: close', 'Connection: keep-alive')))
    socket.on('data', () => {})
    socket.on('end', () => socket.destroy())
    socket.on('error', () => {})
    socket.once('finish', () => socket.destroy())
    expect(await outcome).to.equal('called back')
  })

  it('refuses a hint value with a newline, or a malformed link (ENC_ERR_REPLY_INVALID_HEADER), instead of splitting the response', async () => {
    const codes: unknown[] = []
    const app = await listening((root) => {
      root.get('/split', async (_req, reply) => {
        reply.writeEarlyHints({ link: LINK, 'x-hint': 'a\r\nset-cookie: session=stolen' })
        return 'unreached'
      })
      root.get('/link', async (_req, reply) => {
        try { reply.writeEarlyHints({ link: '</a.css>\r\nset-cookie: session=stolen' }) } catch (error) { codes.push((error as { code?: string }).code); throw error }
        return 'unreached'
      })
    })
    const out = await exchange(app, get('/split'))
    expect(out).to.match(/^HTTP\/1\.1 500 Internal Server Error\r\n/).and.not.include('set-cookie').and.not.include('103')
    expect(JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4))).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    const link = await exchange(app, get('/link'))
    expect(link).to.match(/^HTTP\/1\.1 500 Internal Server Error\r\n/).and.not.include('set-cookie')
    expect(codes).to.deep.equal(['ENC_ERR_REPLY_INVALID_HEADER'])
  })
})
