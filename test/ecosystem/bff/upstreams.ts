// The BFF's three upstreams, plain node:http servers on loopback: a slow one (the profile), a flaky
// one (recommendations, told to fail), and one that streams (NDJSON items, an SSE token stream),
// writing only as fast as its reader takes (res.write's backpressure). Each request is recorded:
// the x-request-id it carried and whether it ended or was cut by the BFF.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Seen { path: string; requestId: string | undefined; outcome: 'open' | 'finished' | 'aborted' }

export interface Upstreams {
  slow: string; flaky: string; stream: string
  seen: Seen[]
  /** Bytes the streaming upstream has written so far. */
  written(): number
  setFlaky(failing: boolean): void
  close(): Promise<void>
}

export async function startUpstreams(): Promise<Upstreams> {
  const seen: Seen[] = []
  let written = 0
  let failing = false
  const track = (req: IncomingMessage, res: ServerResponse): Seen => {
    const entry: Seen = { path: req.url ?? '', requestId: req.headers['x-request-id'] as string | undefined, outcome: 'open' }
    seen.push(entry)
    res.on('close', () => { entry.outcome = res.writableFinished ? 'finished' : 'aborted' })
    return entry
  }
  const slow = createServer((req, res) => {
    track(req, res)
    const delay = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('delay') ?? 50)
    const timer = setTimeout(() => res.setHeader('content-type', 'application/json').end(JSON.stringify({ name: 'Ada', plan: 'pro' })), delay)
    res.on('close', () => clearTimeout(timer))
  })
  const flaky = createServer((req, res) => {
    track(req, res)
    if (failing) res.writeHead(503).end('down')
    else res.setHeader('content-type', 'application/json').end(JSON.stringify([{ id: 1, title: 'first' }, { id: 2, title: 'second' }]))
  })
  const stream = createServer((req, res) => {
    track(req, res)
    const url = new URL(req.url ?? '/', 'http://x')
    const count = Number(url.searchParams.get('n') ?? 5)
    const pad = 'x'.repeat(Number(url.searchParams.get('size') ?? 8))
    const sse = url.pathname === '/tokens'
    res.setHeader('content-type', sse ? 'text/event-stream' : 'application/x-ndjson')
    let i = 0
    const next = (): void => {
      if (res.destroyed) return
      if (i === count) { res.end(); return }
      const text = sse ? `data: ${JSON.stringify({ i, token: pad })}\n\n` : `${JSON.stringify({ i, pad })}\n`
      i++
      written += text.length
      if (res.write(text)) setTimeout(next, sse ? 2 : 0)
      else res.once('drain', next)
    }
    next()
  })
  const servers: Server[] = [slow, flaky, stream]
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))))
  const at = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`
  return {
    slow: at(slow), flaky: at(flaky), stream: at(stream), seen,
    written: () => written,
    setFlaky: (value) => { failing = value },
    async close() {
      for (const s of servers) { s.closeAllConnections(); await new Promise((resolve) => s.close(resolve)) }
    },
  }
}
