import { PassThrough } from 'node:stream'
import type { Scope } from '../../src/runtime'

/** What a careless event-stream route produced: its source (once a request came) and the bytes written to it. */
export interface CarelessFeed { readonly source: PassThrough | undefined; readonly written: number }

/**
 * Declares GET `path` on `app`: an event stream fed 65 KB events every 2 ms regardless of
 * write()'s answer (a careless hub), up to `budget` bytes, stopping when its source closes.
 * The queue-limit tests watch what the server does about a client that reads none of it.
 */
export function carelessFeed(app: Scope, path: string, budget: number): CarelessFeed {
  const feed = { source: undefined as PassThrough | undefined, written: 0 }
  app.get(path, async (_request, reply) => {
    const source = feed.source = new PassThrough()
    const event = `data: ${'x'.repeat(65_000)}\n\n`
    const timer = setInterval(() => { if (feed.written < budget) { source.write(event); feed.written += event.length } }, 2)
    source.on('close', () => clearInterval(timer))
    reply.type('text/event-stream')
    return source
  })
  return feed
}
