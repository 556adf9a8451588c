/**
 * The first request to the boot app's last route, with a body its schema accepts, timed on the
 * wall clock from sending to the end of the answer, and on CPU (a busy machine inflates the wall
 * clock, not the CPU time). One untimed request to the first route goes
 * before it: the very first request of a process also pays for node's cold HTTP paths (10-20 ms
 * on any framework), which is not what "a route's first request" means. A status other than 200
 * fails the worker: a route that answers 400 or 500 would time the wrong path.
 */
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { performance } from 'node:perf_hooks'
import { BootApp, BootRoute, exampleBody } from './routes'

const TIMEOUT_MS = 10_000

export interface FirstRequest {
  readonly ms: number
  /** CPU time of the process over the request: the server's work plus the small client's. */
  readonly cpuMs: number
}

export async function firstRequest(server: Server, app: BootApp): Promise<FirstRequest> {
  await post(server, app, app.routes[0])
  const cpuStart = process.cpuUsage()
  const ms = await post(server, app, app.routes[app.routes.length - 1])
  const cpu = process.cpuUsage(cpuStart)
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 }
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
