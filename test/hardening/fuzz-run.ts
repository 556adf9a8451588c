/**
 * Sending one generated session (fuzz-traffic.ts) over a loopback socket and judging what came
 * back against the error contract. Shared by the fuzz test, bench/fuzz.ts (N seeds on demand)
 * and the scratch comparison with Fastify 3 and 5.
 */
import { connect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { tlsCert } from '../support/tls'
import type { FuzzSession } from './fuzz-traffic'
import { parseAnswers, type Answer } from './fuzz-wire'

export interface Exchange { received: Buffer; closed: boolean; timedOut: boolean }

/** Internals that must never reach a client: stack frames, paths, engine error texts. */
export const LEAK = /\bat [\w.<>]+ \(|\/src\/|\/dist\/|node_modules|\.[jt]s:\d+|TypeError|ReferenceError|Cannot read prop|is not a function|\[object Object\]/

/** 5xx answers the contract documents (the framework refuses what it cannot serve). */
const DOCUMENTED_5XX = ['ENC_ERR_REQUEST_TRANSFER_CODING', 'ENC_ERR_REQUEST_CONNECT_UNSUPPORTED', 'FST_ERR_CTP_INVALID_MEDIA_TYPE']
const ON_PURPOSE_500 = ['/fz/rethrow/boom']

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** How many answers the session can be held to: up to and including its first request whose framing is not ours. */
function expected(session: FuzzSession): number {
  const firstLoose = session.requests.findIndex((q) => !q.framed)
  return firstLoose < 0 ? session.requests.length : firstLoose + 1
}

/** `secure`: the session goes over TLS (the test certificate), its bytes mutated as over TCP. */
export function exchange(port: number, session: FuzzSession, secure = false): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = secure ? tlsConnect({ host: '127.0.0.1', port, ca: tlsCert, servername: 'localhost' }) : connect({ host: '127.0.0.1', port })
    socket.setNoDelay(true)
    const chunks: Buffer[] = []
    const methods = session.requests.map((q) => q.method)
    const wanted = expected(session)
    let closed = false
    let settled = false
    let upgraded = false
    const settle = (timedOut: boolean): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ received: Buffer.concat(chunks), closed, timedOut })
    }
    const complete = session.requests.every((q) => q.complete) && session.delivery !== 'cut'
    // A request the server cannot answer until its timeouts fire (a short body) waits for them.
    const timer = setTimeout(() => settle(true), complete ? 5_000 : 8_000)
    socket.on('error', () => undefined)
    socket.on('close', () => { closed = true; settle(false) })
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      const parsed = parseAnswers(Buffer.concat(chunks), methods, false)
      if (parsed.upgraded && !upgraded) {
        upgraded = true
        for (const frame of session.wsFrames) socket.write(frame)
        setTimeout(() => settle(false), 100)
        return
      }
      if (!upgraded && (parsed.unparsable !== undefined || parsed.list.length >= wanted)) settle(false)
    })
    void deliver(socket, session)
  })
}

async function deliver(socket: Socket, session: FuzzSession): Promise<void> {
  const { bytes } = session
  switch (session.delivery) {
    case 'whole': socket.write(bytes); return
    case 'half-close': socket.end(bytes); return
    case 'fragments':
      for (let at = 0, size = 1; at < bytes.length; at += size, size = (size * 7) % 613 + 1) socket.write(bytes.subarray(at, at + size))
      return
    case 'slow': {
      // At most 12 pieces, 3 ms apart: slow enough to cross reads, bounded in time.
      const step = Math.max(1, Math.ceil(bytes.length / 12))
      for (let at = 0; at < bytes.length && !socket.destroyed; at += step) { socket.write(bytes.subarray(at, at + step)); await sleep(3) }
      return
    }
    case 'cut':
      socket.write(bytes.subarray(0, session.cutAt))
      await sleep(20)
      socket.destroy()
  }
}

/**
 * Plain-text 400s that plugins write themselves, exactly as under Fastify: @fastify/cors refuses
 * a preflight without Origin or method, and ws refuses a handshake on the raw socket.
 */
const PLUGIN_TEXTS = ['Invalid Preflight Request', 'Missing or invalid Sec-WebSocket-Key header', 'Missing or invalid Sec-WebSocket-Version header', 'Invalid Upgrade header', 'Unsupported WebSocket version']

export function errorShape(answer: Pick<Answer, 'status' | 'body'>, path: string): string | null {
  const text = answer.body.toString('utf8')
  if (answer.status === 400 && PLUGIN_TEXTS.includes(text)) return null
  // @fastify/websocket answers a plain GET to a websocket-only route with reply.code(404).send().
  if (answer.status === 404 && text === '' && path.startsWith('/fz/ws')) return null
  let parsed: Record<string, unknown>
  try { parsed = JSON.parse(text) as Record<string, unknown> } catch { return `${answer.status} that is not JSON: ${text.slice(0, 200)}` }
  if (parsed === null || typeof parsed !== 'object') return `${answer.status} that is not an object: ${text.slice(0, 200)}`
  // The sample's orders module answers its validation errors itself, with validationContext.
  const allowed = ['statusCode', 'code', 'error', 'message', ...(path === '/orders' && answer.status === 422 ? ['validationContext'] : [])]
  const extra = Object.keys(parsed).filter((k) => !allowed.includes(k))
  if (parsed.statusCode !== answer.status || typeof parsed.error !== 'string' || typeof parsed.message !== 'string' || extra.length > 0) return `${answer.status} without the error shape: ${text.slice(0, 200)}`
  if (parsed.code !== undefined && typeof parsed.code !== 'string') return `${answer.status} with a non-string code: ${text.slice(0, 200)}`
  if (answer.status >= 500) {
    const onPurpose = ON_PURPOSE_500.includes(path) && answer.status === 500 && parsed.code === undefined && parsed.message === 'Internal Server Error'
    if (!onPurpose && !DOCUMENTED_5XX.includes(String(parsed.code))) return `${answer.status} from the framework: ${text.slice(0, 200)}`
  }
  return null
}

/**
 * Error-level log entries that are not the framework's: the route that throws on purpose,
 * @fastify/websocket logging a client's protocol error (WS_ERR_*) itself, and a multipart handler
 * still reading when its connection died rejecting with node:http's 'aborted', over HTTP/2 with
 * @fastify/multipart's FST_MP_PREMATURE_CLOSE (its stream was reset; logged as Fastify 3 does:
 * 'Promise errored, but reply.sent = true was set').
 */
export function notOurs(err: (Error & { code?: string }) | undefined): boolean {
  return /^WS_ERR_/.test(String(err?.code)) || err?.message === 'aborted' || err?.code === 'FST_MP_PREMATURE_CLOSE' || /on purpose/.test(String(err?.message))
}

export interface Verdict { violations: string[]; answers: Answer[]; silentClose: boolean; upgraded: boolean }

/** What is wrong with what the server did with the session (nothing when `violations` is empty). */
export function judge(session: FuzzSession, { received, closed, timedOut }: Exchange): Verdict {
  const { requests } = session
  // A HEAD whose request line Node could not parse is answered as any malformed request, with a body.
  const parsed = parseAnswers(received, requests.map((q) => (q.method === 'HEAD' && !q.framed ? 'HEAD?' : q.method)), closed)
  const violations: string[] = []
  if (parsed.unparsable !== undefined) violations.push(`unparsable answer: ${JSON.stringify(parsed.unparsable)}`)
  if (parsed.partial && closed) violations.push(`a partial answer before the close: ${JSON.stringify(received.toString('latin1').slice(-200))}`)
  parsed.list.forEach((answer, i) => {
    const request = requests[i] ?? { method: 'GET', path: '?', framed: false, complete: true }
    if (answer.status === 101) {
      if (!request.upgrade) violations.push(`101 to a request that did not ask to upgrade`)
      return
    }
    if (answer.headers['transfer-encoding'] !== undefined && answer.headers['content-length'] !== undefined) violations.push(`answer ${i}: Transfer-Encoding and Content-Length`)
    if (answer.closeDelimited && !/close/i.test(answer.headers.connection ?? '')) violations.push(`answer ${i}: a body without framing on a kept connection`)
    const text = answer.body.toString('utf8')
    if (LEAK.test(text)) violations.push(`answer ${i}: internals in the body: ${text.slice(0, 200)}`)
    if (answer.status >= 400 && request.method !== 'HEAD') {
      const wrong = errorShape(answer, request.path)
      if (wrong !== null) violations.push(`answer ${i} (${request.method} ${request.path}): ${wrong}`)
    }
    if (request.probe !== undefined && (answer.status !== 200 || text !== `{"seq":"${request.probe}"}`)) violations.push(`answer ${i}: the probe got ${answer.status} ${text.slice(0, 100)}: out of sync`)
  })
  let silentClose = false
  // Node's server ends a connection at the client's FIN (httpAllowHalfOpen is false, in Fastify
  // too): answers not written by then are dropped, so a half-closed session is held to none.
  if (session.delivery !== 'cut' && session.delivery !== 'half-close' && !parsed.upgraded && parsed.unparsable === undefined) {
    for (let i = 0; i < requests.length; i++) {
      if (parsed.list[i] !== undefined) {
        if (!requests[i].framed || /close/i.test(parsed.list[i].headers.connection ?? '')) break
        continue
      }
      if (!requests[i].complete) break
      if (timedOut) violations.push(`request ${i} (${requests[i].method} ${requests[i].path}): no answer, and the connection was not closed`)
      else if (i > 0) violations.push(`request ${i} (${requests[i].method} ${requests[i].path}) on a kept connection: closed without an answer`)
      else silentClose = true
      break
    }
  }
  return { violations, answers: parsed.list, silentClose, upgraded: parsed.upgraded }
}
