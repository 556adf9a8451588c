// A bounded load loop over keep-alive sockets, as a service behind a balancer sees it: what
// each request got (status and Connection header, or the error and whether the socket was
// reused, which is when a well-behaved client may retry: Node's docs on `reusedSocket`).
import { Agent, request } from 'node:http'

export interface Outcome {
  readonly status?: number
  readonly connection?: string
  readonly error?: string
  /** The request went out on a kept-alive socket that the server may have closed meanwhile. */
  readonly reused: boolean
  readonly at: number
}

export interface LoadOptions {
  readonly url: string
  /** Requests in all (the bound). */
  readonly total: number
  readonly concurrency: number
  /** Called once, when this many requests have completed. */
  readonly after?: { count: number, run: () => void }
  /** Time bound on the whole loop; requests not started by then are not sent. */
  readonly deadlineMs: number
}

export async function keepAliveLoad(options: LoadOptions): Promise<Outcome[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency })
  const outcomes: Outcome[] = []
  const end = Date.now() + options.deadlineMs
  let next = 0
  let fired = false
  const one = (): Promise<void> => new Promise((resolve) => {
    const req = request(options.url, { agent }, (res) => {
      res.resume()
      res.once('end', () => {
        outcomes.push({ status: res.statusCode, connection: res.headers.connection, reused: req.reusedSocket, at: Date.now() })
        resolve()
      })
      res.once('error', (error: NodeJS.ErrnoException) => { outcomes.push({ error: error.code ?? error.message, reused: req.reusedSocket, at: Date.now() }); resolve() })
    })
    req.once('error', (error: NodeJS.ErrnoException) => { outcomes.push({ error: error.code ?? error.message, reused: req.reusedSocket, at: Date.now() }); resolve() })
    req.end()
  })
  const worker = async (): Promise<void> => {
    while (next < options.total && Date.now() < end) {
      next++
      await one()
      if (!fired && options.after !== undefined && outcomes.length >= options.after.count) { fired = true; options.after.run() }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  agent.destroy()
  return outcomes
}

export function tally(outcomes: readonly Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const o of outcomes) {
    const key = o.error !== undefined ? `${o.error}${o.reused ? ' (reused socket)' : ''}` : `${o.status}${o.connection === 'close' ? ' close' : ''}`
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}
