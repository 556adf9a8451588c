/**
 * The soak's load: `concurrency` workers, each sending one request after another over a shared
 * keep-alive agent on loopback until the deadline. Every answer is checked against the status a
 * correct server gives; a request without an answer after `hangMs` counts as a hang.
 */
import { Agent, request as httpRequest } from 'node:http'
import { nextRequest, type SoakRequest } from './requests'
import { mulberry32 } from '../harness/prng'

export interface LoadTally {
  done: number
  statuses: Record<string, number>
  /** Answers with another status than expected, by `kind expected->got`. */
  unexpected: Record<string, number>
  /** Requests aborted on purpose (half a body, then the socket destroyed). */
  aborted: number
  hangs: number
  /** Client-side failures: resets, refused connections, bodies that are not the JSON shape. */
  errors: Record<string, number>
}

export interface LoadOptions {
  port: number
  concurrency: number
  deadline: number
  seed: number
  hangMs: number
}

const bump = (map: Record<string, number>, key: string): void => { map[key] = (map[key] ?? 0) + 1 }

/** One request; resolves with what happened, never rejects. */
function send(agent: Agent, port: number, spec: SoakRequest, hangMs: number, tally: LoadTally): Promise<void> {
  return new Promise((resolve) => {
    let settled = false
    const finish = (): void => { if (!settled) { settled = true; resolve() } }
    const headers: Record<string, string | number> = { ...spec.headers }
    if (spec.body !== null) headers['content-length'] = Buffer.byteLength(spec.body)
    const req = httpRequest({ host: '127.0.0.1', port, method: spec.method, path: spec.path, headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', () => { bump(tally.errors, `${spec.kind}: response stream error`); finish() })
      res.on('end', () => {
        tally.done++
        const status = res.statusCode ?? 0
        bump(tally.statuses, String(status))
        if (status !== spec.expect) bump(tally.unexpected, `${spec.kind} ${spec.expect}->${status}`)
        if (status >= 400 && spec.method !== 'HEAD' && !isErrorShape(Buffer.concat(chunks).toString('utf8'))) bump(tally.errors, `${spec.kind}: not the error shape`)
        finish()
      })
    })
    req.setTimeout(hangMs, () => { tally.hangs++; bump(tally.errors, `${spec.kind}: no answer within ${hangMs} ms`); req.destroy() })
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (spec.abort) tally.aborted++
      else if (!settled) bump(tally.errors, `${spec.kind}: ${error.code ?? error.message}`)
      finish()
    })
    if (spec.abort && spec.body !== null) {
      req.write(spec.body.slice(0, spec.body.length >> 1))
      // Let the half body reach the server before the socket goes.
      setTimeout(() => req.destroy(), 2)
      return
    }
    req.end(spec.body ?? undefined)
  })
}

function isErrorShape(text: string): boolean {
  try {
    const body = JSON.parse(text) as Record<string, unknown>
    return typeof body.statusCode === 'number' && typeof body.error === 'string' && typeof body.message === 'string'
  } catch {
    return false
  }
}

/** Runs the load until the deadline; resolves with the tally once every worker has stopped. */
export async function runLoad(options: LoadOptions): Promise<LoadTally> {
  const tally: LoadTally = { done: 0, statuses: {}, unexpected: {}, aborted: 0, hangs: 0, errors: {} }
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency })
  const worker = async (index: number): Promise<void> => {
    const random = mulberry32(options.seed + index)
    // Bounded twice: by the deadline and by a count no loopback run of the allowed length reaches.
    for (let n = 0; n < 1e9 && Date.now() < options.deadline; n++) {
      await send(agent, options.port, nextRequest(random), options.hangMs, tally)
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, (_, i) => worker(i)))
  agent.destroy()
  return tally
}
