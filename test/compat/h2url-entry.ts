// `require('h2url')` in Fastify's http2 test files resolves here (require-hook.ts). h2url is a
// devDependency of Fastify's, not ours; its `concat({ url, method, headers, body })` is small:
// one HTTP/2 session to the URL's origin that trusts any certificate, one request, the response's
// headers and whole body as a string, then the session destroyed.
import { connect, type IncomingHttpHeaders } from 'node:http2'

interface H2Options { url: string; method?: string; headers?: Record<string, string>; body?: string | Uint8Array }

async function concat(options: H2Options): Promise<{ headers: IncomingHttpHeaders; body: string }> {
  const url = new URL(options.url)
  const session = connect(url.origin, { rejectUnauthorized: false })
  try {
    const stream = session.request({ ':path': url.pathname + url.search, ':method': options.method ?? 'GET', ...options.headers })
    stream.end(options.body)
    const headers = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
      stream.once('response', resolve)
      stream.once('error', reject)
      session.once('error', reject)
    })
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    return { headers, body: Buffer.concat(chunks).toString() }
  } finally {
    session.destroy()
  }
}

export = { concat }
