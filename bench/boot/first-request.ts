/**
 * The first request to the boot app's last route, with a body its schema accepts, timed on the
 * wall clock from sending to the end of the answer. A status other than 200 fails the worker:
 * a route that answers 400 or 500 would time the wrong path.
 */
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { performance } from 'node:perf_hooks'
import { BootApp, exampleBody } from './routes'

const TIMEOUT_MS = 10_000

export function firstRequest(server: Server, app: BootApp): Promise<number> {
  const route = app.routes[app.routes.length - 1]
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
