import { createServer as createHttpServer, maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Http2Session } from 'node:http2'
import { runtimeError } from '../errors/runtime-codes'
import { enclaveIncomingMessage } from './incoming-message'
import { connectionsCheckingInterval, type ServerLimits } from '../shared/server-options'
import type { ServerOptions } from '../types'
import { closeIdleSession } from './http2-session-timeout'
import { readSocketOfDestroyedSession } from './http2-destroyed-session'
import { parseTlsHttp1FromData } from './tls-http1-parsing'

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void

/** What a server speaks, fixed at createServer(): the lifecycle and the connection tracking branch on it once per server, never per request. */
export interface Transport {
  /** node:http2 (h2c, or TLS with ALPN): connections are sessions, closed with GOAWAY. */
  readonly http2: boolean
  /** TLS: connections are TLS sockets after their handshake; the listen URL is https://. */
  readonly secure: boolean
  /** The user's serverFactory made it: its own timeouts are left as they are. */
  readonly factory: boolean
}

/** Fastify 3's default http2SessionTimeout: an HTTP/2 session idle this long is closed (GOAWAY). */
export const defaultHttp2SessionTimeout = 5_000

/** The longest delay a Node timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 0x7fffffff

/** The streams one HTTP/2 connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS). */
export const defaultMaxConcurrentStreams = 100

/**
 * The most decoded header bytes one HTTP/2 request may carry (SETTINGS_MAX_HEADER_LIST_SIZE): the
 * bound an HTTP/1.1 head has (Node's maxHeaderSize, 16 KiB unless --max-http-header-size says
 * otherwise), plus RFC 7541's 32 octets per field for the 128 fields Node takes. Node announces
 * none (http2.getDefaultSettings() reports 65535, a default it does not send), and HPACK lets a client enter a 4 KB value in the connection's table once and name it again at
 * one byte each: 110 bytes sent became 400 KB of headers (one `x-a` of 404,200 characters) in the
 * handler, 4,000 such requests 2.7 s of CPU on bare Node. Past this, Node resets the stream
 * (RST_STREAM) without a handler, and a client that goes on is cut with GOAWAY. Over TLS,
 * `https.settings.maxHeaderListSize` changes it; cleartext h2c has no settings option (`https`
 * makes the server secure), so there it follows --max-http-header-size through maxHeaderSize, or a
 * `serverFactory` makes the server with its own settings.
 */
export const defaultMaxHeaderListSize = maxHeaderSize + 32 * 128

/**
 * Builds the Node server Fastify 3 would for these options: node:http by default, node:https with
 * `https`, node:http2 with `http2` (cleartext h2c, or secure with `https`, and HTTP/1.1 on the same
 * port with `https.allowHTTP1`), or whatever `serverFactory(listener, options)` returns.
 * The options were checked in declare/option-checks.ts.
 */
export function createNodeServer(options: ServerOptions, limits: ServerLimits, listener: RequestListener): { server: Server, transport: Transport } {
  if (options.serverFactory !== undefined) {
    const server = options.serverFactory(listener, options) as unknown
    if (server === null || typeof server !== 'object' || typeof (server as Server).listen !== 'function' || typeof (server as Server).on !== 'function') {
      throw runtimeError('ENC_ERR_SERVER_INVALID_OPTION', { problem: `{ serverFactory }): the factory must return a server (an object with listen() and on(), e.g. http.createServer(handler)), got ${server === null ? 'null' : typeof server}.` })
    }
    // Fastify 3 leaves a factory's server as it is (no timeouts set); so does Enclave.
    return { server: server as Server, transport: { http2: isHttp2Server(server), secure: server instanceof nodeTls().Server, factory: true } }
  }
  if (options.http2 === true) return { server: http2Server(options, limits, listener), transport: { http2: true, secure: options.https !== undefined, factory: false } }
  const settings = {
    headersTimeout: limits.headersTimeout,
    requestTimeout: limits.requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeout,
    connectionsCheckingInterval: connectionsCheckingInterval(limits),
    // Node's own answer to a missing Host has no body; pipeline.ts gives the JSON error shape instead.
    requireHostHeader: false,
    // Node's request class with a cheaper headers getter (incoming-message.ts).
    IncomingMessage: enclaveIncomingMessage(),
  }
  const server = options.https === undefined
    ? createHttpServer(settings, listener)
    : withTlsOptions(() => nodeHttps().createServer({ ...options.https, handshakeTimeout: handshakeTimeout(options, limits), ...settings }, listener) as unknown as Server)
  if (options.https !== undefined) parseTlsHttp1FromData(server)
  // Fastify 3's socket timeout: Node destroys a connection idle this long (socket-timeout.ts runs onTimeout).
  if (limits.connectionTimeout > 0) server.setTimeout(limits.connectionTimeout)
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket
  return { server, transport: { http2: false, secure: options.https !== undefined, factory: false } }
}

function http2Server(options: ServerOptions, limits: ServerLimits, listener: RequestListener): Server {
  const tlsOptions = options.https
  // Node's own default lets one connection open 2^32-1 streams at once; every stream is a request
  // in flight. 100 as RFC 9113 §6.5.2 advises as the least, close to nginx (128); settings in
  // `https` (secure) win. The header list as an HTTP/1.1 head is bounded (defaultMaxHeaderListSize).
  const settings = {
    ...tlsOptions?.settings,
    maxConcurrentStreams: tlsOptions?.settings?.maxConcurrentStreams ?? defaultMaxConcurrentStreams,
    maxHeaderListSize: tlsOptions?.settings?.maxHeaderListSize ?? defaultMaxHeaderListSize,
  }
  const http2 = nodeHttp2()
  const server = tlsOptions === undefined
    ? http2.createServer({ settings }, listener as never)
    : withTlsOptions(() => http2.createSecureServer({ ...tlsOptions, handshakeTimeout: handshakeTimeout(options, limits), settings }, listener as never))
  // Capped at the longest delay a Node timer takes: past it setTimeout fires after 1 ms (the
  // destroyed session's read-again) and both warn (TimeoutOverflowWarning) on every session.
  const sessionTimeout = Math.min(options.http2SessionTimeout ?? defaultHttp2SessionTimeout, MAX_TIMER_MS)
  // Fastify 3: a session with no activity for http2SessionTimeout is closed (GOAWAY, open streams finish).
  if (sessionTimeout > 0) server.on('session', (session: Http2Session) => { closeIdleSession(session, sessionTimeout, limits.drainTimeout) })
  server.on('session', (session: Http2Session) => { readSocketOfDestroyedSession(session, sessionTimeout > 0 ? sessionTimeout : defaultHttp2SessionTimeout) })
  // With allowHTTP1, HTTP/1.1 connections are served by Node's http connection listener, which reads these from the server.
  if (options.https?.allowHTTP1 === true) {
    Object.assign(server, {
      headersTimeout: limits.headersTimeout,
      requestTimeout: limits.requestTimeout,
      keepAliveTimeout: limits.keepAliveTimeout,
      maxRequestsPerSocket: limits.maxRequestsPerSocket,
      connectionsCheckingInterval: connectionsCheckingInterval(limits),
    })
    parseTlsHttp1FromData(server as unknown as Server)
  }
  if (limits.connectionTimeout > 0) server.setTimeout(limits.connectionTimeout)
  return server as unknown as Server
}

/**
 * How long a TLS connection may take to finish its handshake. Node's default is 120 s, and no
 * HTTP timeout runs before the handshake is done (headersTimeout starts once HTTP is spoken): a
 * client that connects and sends nothing, or half a ClientHello, held the connection for two
 * minutes, so a few hundred of them pin as many sockets. The handshake gets headersTimeout,
 * the bound a client has to send its request head; `https.handshakeTimeout` given wins, and
 * headersTimeout 0 (off) leaves Node's default.
 */
function handshakeTimeout(options: ServerOptions, limits: ServerLimits): number | undefined {
  const given = options.https?.handshakeTimeout
  if (given !== undefined) return given
  return limits.headersTimeout > 0 ? limits.headersTimeout : undefined
}

/** Node reads the key and certificate when the server is made: one it cannot use fails createServer() with the option named. */
function withTlsOptions<S>(make: () => S): S {
  try {
    return make()
  } catch (cause) {
    const reason = cause instanceof Error ? `${(cause as NodeJS.ErrnoException).code ?? cause.name}: ${cause.message}` : String(cause)
    throw runtimeError('ENC_ERR_SERVER_INVALID_OPTION', { problem: `{ https }): node:tls refused the TLS options (${reason}). Give key and cert as PEM (a Buffer or string, e.g. fs.readFileSync('key.pem')), or pfx with its passphrase.` })
  }
}

/** A factory's server is HTTP/2 when it is one of node:http2's servers (they emit 'session'). */
function isHttp2Server(server: unknown): boolean {
  const name = (server as object).constructor?.name
  return name === 'Http2Server' || name === 'Http2SecureServer'
}

// node:https, node:http2 and node:tls are loaded by the servers that use them only: a plain HTTP
// service does not pay for loading them at start.
/* eslint-disable @typescript-eslint/no-require-imports */
function nodeHttps(): typeof import('node:https') { return require('node:https') as typeof import('node:https') }
function nodeHttp2(): typeof import('node:http2') { return require('node:http2') as typeof import('node:http2') }
function nodeTls(): typeof import('node:tls') { return require('node:tls') as typeof import('node:tls') }
/* eslint-enable @typescript-eslint/no-require-imports */
