import { expect } from 'chai'
import { createServer as createHttpServer, type Server } from 'node:http'
import { gunzipSync } from 'node:zlib'
import { join } from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { startListening } from '../support/listening-child'

// @sentry/node 11 (Sentry's Fastify guide: Sentry.init with a DSN, then setupFastifyErrorHandler(app))
// against a loopback ingest server standing in for sentry.io. Its Fastify integration finds the app
// through the diagnostics channel 'fastify.initialization', which Enclave publishes as Fastify does,
// and adds onRoute/onRequest/onResponse/onError hooks. The app runs in a child process (fixtures/sentry-app.ts).
const fixture = join(__dirname, 'fixtures', 'sentry-app.js')

interface Envelope { items: Array<{ header: { type: string }; body: Record<string, any> }> }

function ingest(): Promise<{ server: Server; dsn: string; envelopes: Envelope[] }> {
  const envelopes: Envelope[] = []
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      let raw = Buffer.concat(chunks)
      if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw)
      const lines = raw.toString().split('\n').filter((line) => line.length > 0)
      const items: Envelope['items'] = []
      for (let i = 1; i + 1 < lines.length; i += 2) items.push({ header: JSON.parse(lines[i]), body: JSON.parse(lines[i + 1]) })
      envelopes.push({ items })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number }
    resolve({ server, dsn: `http://public@127.0.0.1:${port}/1`, envelopes })
  }))
}

describe('@sentry/node with Enclave (errors to a loopback ingest server)', function () {
  this.timeout(50_000)
  const started: ChildProcess[] = []
  afterEach(() => { for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL') })

  for (const mode of ['scope', 'module'] as const) {
    it(`reports a handler's error once, with the route as transaction and the request URL; a 4xx is not reported; answers unchanged (${mode})`, async () => {
      const { server, dsn, envelopes } = await ingest()
      try {
        const app = await startListening(fixture, { SENTRY_DSN: dsn, MODE: mode }, started)
        const failed = await fetch(`${app.address}/users/7`)
        expect(failed.status).to.equal(500)
        expect(await failed.json()).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
        const missing = await fetch(`${app.address}/users/missing/8`)
        expect(missing.status).to.equal(404)
        expect(await missing.json()).to.deep.equal({ statusCode: 404, error: 'Not Found', message: 'no such user' })
        expect(await (await fetch(`${app.address}/users/ok/9`)).json()).to.deep.equal({ id: '9' })
        app.child.kill('SIGTERM')
        expect(await app.exited).to.equal(0)

        const events = envelopes.flatMap((e) => e.items).filter((item) => item.header.type === 'event').map((item) => item.body)
        expect(events, 'one event: the 500, not the 404, and no second one from the error log').to.have.length(1)
        const [event] = events
        expect(event.exception.values[0].value).to.equal('db down for user 7')
        expect(event.exception.values[0].mechanism).to.deep.equal({ type: 'auto.function.fastify', handled: false })
        expect(event.transaction).to.equal('GET /users/:id')
        expect(event.request.method).to.equal('GET')
        expect(event.request.url).to.equal(`${app.address}/users/7`)

        // Tracing (@sentry/node 11 sends spans, not transactions): the server segment is named by the route, with the status.
        const spans = envelopes.flatMap((e) => e.items).filter((item) => item.header.type === 'span').flatMap((item) => item.body.items as any[])
        const segment = spans.find((span) => span.is_segment && span.name === 'GET /users/:id')
        expect(segment, spans.map((span) => span.name).join(', ')).to.not.equal(undefined)
        expect(segment.attributes['http.route'].value).to.equal('/users/:id')
        expect(segment.attributes['http.response.status_code'].value).to.equal(500)
        expect(spans.some((span) => span.is_segment && span.name === 'GET /users/missing/:id' && span.attributes['http.response.status_code'].value === 404)).to.equal(true)
      } finally {
        server.close()
      }
    })
  }
})
