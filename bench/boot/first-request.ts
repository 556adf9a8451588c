/**
 * The first request to the boot app's last route, with a body its schema accepts, timed on the
 * wall clock from sending to the end of the answer, and on CPU (a busy machine inflates the wall
 * clock, not the CPU time). One untimed request to the first route goes
 * before it: the very first request of a process also pays for node's cold HTTP paths (10-20 ms
 * on any framework), which is not what "a route's first request" means. A status other than 200
 * fails the worker: a route that answers 400 or 500 would time the wrong path.
 *
 * Two views of the same request (boot21): the process's CPU over the whole exchange (the client
 * runs in this process, for only its second time, so its cold code is in it), and the server's
 * own share measured inside the server: the CPU from node's 'request' event (headers parsed) to
 * the response's end() returning (routing, body, validation, lazy compile, handler, serialization,
 * the write). Both are the process's CPU, every thread: Node 20 has no per-thread clock (the
 * kernel's schedstat was tried: it moves only at scheduler events and ticks).
 */
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { BootApp, BootRoute, exampleBody } from './routes'

const cpuUs = (): number => {
  const { user, system } = process.cpuUsage()
  return user + system
}

const TIMEOUT_MS = 10_000

export interface FirstRequest {
  /** Client wall clock, sending to the end of the answer. */
  readonly ms: number
  /** CPU time of the process over the request: the server's work plus the small client's. */
  readonly cpuMs: number
  /** The server's own share: CPU from node's 'request' event to end() returning. */
  readonly serverCpuMs: number
}

export async function firstRequest(server: Server, app: BootApp): Promise<FirstRequest> {
  await post(server, app, app.routes[0])
  const share = watchNextRequest(server)
  const cpuStart = process.cpuUsage()
  const ms = await post(server, app, app.routes[app.routes.length - 1])
  const cpu = process.cpuUsage(cpuStart)
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, serverCpuMs: (await share).cpuMs }
}

/**
 * Measures, inside the server, the next request it receives (listener put first, so nothing of
 * the framework runs before the clock starts). `finished`: the response is flushed (an external
 * client's worker waits for it before exiting).
 */
export function watchNextRequest(server: Server): Promise<{ cpuMs: number; finished: Promise<void> }> {
  return new Promise((resolve) => {
    server.prependOnceListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      const finished = new Promise<void>((done) => { res.once('finish', done); res.once('close', done) })
      const end = res.end
      const start = cpuUs()
      res.end = function (this: ServerResponse, ...args: unknown[]) {
        const result = (end as (...a: unknown[]) => ServerResponse).apply(this, args)
        const cpuMs = (cpuUs() - start) / 1000
        delete (res as { end?: unknown }).end
        resolve({ cpuMs, finished })
        return result
      } as ServerResponse['end']
    })
  })
}

/**
 * The external client's way (first-request-spread.ts): the untimed request, then the timed one,
 * both sent by another process; this one only measures its share of the second.
 */
export async function serveExternalClient(server: Server): Promise<number> {
  const first = new Promise<void>((resolve) => {
    server.prependOnceListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      res.once('finish', () => resolve())
      res.once('close', () => resolve())
    })
  })
  const { port } = server.address() as AddressInfo
  process.stdout.write(`PORT ${port}\n`)
  await first
  const { cpuMs, finished } = await watchNextRequest(server)
  await finished
  return cpuMs
}

function post(server: Server, app: BootApp, route: BootRoute): Promise<number> {
  const body = JSON.stringify(exampleBody(route.body, app.shared))
  const { port } = server.address() as AddressInfo
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: route.url, agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { text += chunk })
      res.on('end', () => {
        const ms = performance.now() - start
        if (res.statusCode === 200) resolve(ms)
        else reject(new Error(`first request to ${route.url} answered ${res.statusCode}: ${text.slice(0, 200)}`))
      })
    })
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`first request to ${route.url}: no answer within ${TIMEOUT_MS / 1000} s`)))
    req.on('error', reject)
    req.end(body)
  })
}
