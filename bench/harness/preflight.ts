/**
 * Correctness before speed: each endpoint of a contender is requested once and its status,
 * content type and body checked. An endpoint that answers wrongly is reported and left out of
 * the load runs, so a fast wrong answer can never show up as a result.
 */
import { request } from 'node:http'
import { Endpoint } from './endpoints'
import { HOST } from '../servers/ready-line'

const TIMEOUT_MS = 5_000

interface Answer { status: number; type: string; text: string }

function fetchOnce(port: number, endpoint: Endpoint): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...endpoint.headers }
    if (endpoint.body !== null) {
      headers['content-type'] = 'application/json'
      headers['content-length'] = Buffer.byteLength(endpoint.body)
    }
    const req = request({ host: HOST, port, method: endpoint.method, path: endpoint.path, headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { text += chunk })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text }))
    })
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)))
    req.on('error', reject)
    req.end(endpoint.body ?? undefined)
  })
}

/** null when the endpoint answers correctly, else a one-line reason. */
export async function preflight(port: number, endpoint: Endpoint): Promise<string | null> {
  let answer: Answer
  try {
    answer = await fetchOnce(port, endpoint)
  } catch (error) {
    return `request failed: ${(error as Error).message}`
  }
  const shown = answer.text.slice(0, 160)
  if (answer.status !== endpoint.status) return `status ${answer.status}, expected ${endpoint.status}: ${shown}`
  if (!answer.type.startsWith('application/json')) return `content-type '${answer.type}', expected application/json`
  let body: unknown
  try {
    body = JSON.parse(answer.text)
  } catch {
    return `body is not JSON: ${shown}`
  }
  const wrong = endpoint.check(body)
  return wrong === null ? null : `${wrong}, got ${shown}`
}
