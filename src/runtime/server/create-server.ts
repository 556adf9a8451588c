import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Http2ServerResponse } from 'node:http2'
import type { Socket } from 'node:net'
import { DeclareContext } from '../declare/declare-context'
import { ScopeImpl } from '../declare/scope'
import { loadCacheCode, SchemaCompilers } from '../schemas'
import { ServeContext } from '../serve/serve-context'
import { handleRequest, serveNotFound } from '../serve/pipeline'
import { answerWithoutReply } from '../serve/raw-answers'
import { compileTrust } from '../serve/trust-proxy'
import { answerClientError, answerConnect, answerHttp2Connect, callClientErrorHandler } from '../serve/client-error'
import { answerExpectationFailed, continueListener, deferContinue } from '../serve/expect'
import { createRouter, fragmentBeforeQuery, queryParser } from '../serve/router'
import { Deadlines } from '../serve/deadlines'
import { onHandlerExpired } from '../serve/handler-timeout'
import { onBodyExpired } from '../serve/body/read-body'
import { jsonParser, textParser } from '../serve/body/json-parser'
import { reservedReplyNames, reservedRequestNames } from '../fastify-api'
import { resolveLimits } from '../shared/server-options'
import { initialConfigOf } from './initial-config'
import { checkServerOptions, poisonActionsOf } from '../declare/option-checks'
import { resolveLogger, silentLogger } from './logger'
import { ServerLifecycle } from './lifecycle'
import { routingOf } from './routing'
import { watchDrains } from './drain-watch'
import { queueLimitLog } from './queue-limit-log'
import { pipelinedLimitLog } from './pipelined-limit-log'
import { createNodeServer } from './node-server'
import { publishInitialization } from './initialization-channel'
import { trackConnections } from './connections'
import { closingConnection, unlessClosing } from './pipelined-turn'
import { pipelinedCap } from './pipelined-cap'
import type { HttpsOptions, Scope, ServerOptions } from '../types'
import type { RawServerFor, RawServerMark } from '../shared/raw-server'
import { checkSchemaCompilation } from '../shared/schema-compilation'
import { CompileProfile } from '../boot/compile-profile'
import { SharedSchemaWalks } from '../boot/schema-warnings'
import { PartReuse } from '../schemas/part-reuse'
import { customStrategiesOf } from '../shared/custom-constraints'
import { warnVersioningOption } from '../shared/deprecations'

/**
 * Creates a server and returns its root scope (spec §4.2: every operation is on a scope).
 * The composition root: the one place that knows every phase. It builds the serve context
 * (limits, deadlines and their callbacks, router), the HTTP server, the declare context and
 * the root scope, and the lifecycle the root scope's ready/listen/close/inject forward to.
 *
 * @example
 * const app = createServer({ validator: { customOptions: { coerceTypes: 'array' } } })
 * app.get('/hello', { schema: { querystring: { name: { type: 'string' } } } }, (request) => ({ hi: request.query.name }))
 * await app.listen({ port: 3000 })
 */
// The signature types `server` from the `http2`/`https` options (Fastify's RawServer); the body is untyped in it.
export function createServer<H2 extends boolean = false, S extends HttpsOptions | undefined = undefined>(given?: ServerOptions<H2, S>): Scope & RawServerMark<RawServerFor<H2, S>>
export function createServer(given: ServerOptions = {}): Scope {
  // Unknown options are refused with a "did you mean"; Fastify's `ajv` becomes `validator`.
  const options = checkServerOptions(given)
  const limits = resolveLimits(options)
  const schemaCompilation = checkSchemaCompilation(options.schemaCompilation ?? 'eager', 'createServer()')
  const poisonActions = poisonActionsOf(options)
  const trust = compileTrust(options.trustProxy)
  // After every option check that can throw: a `file` logger opens its file, which a refused option would leak.
  const logger = resolveLogger(options.logger)
  const log = logger.log
  const deadlines = new Deadlines([limits.handlerTimeout, limits.bodyTimeout], log)
  const codeCache = options.schemaCache === undefined ? null : new (loadCacheCode().SchemaCodeCache)({ directory: options.schemaCache.directory, mode: options.schemaCache.mode ?? 'read-write', log })
  const schemaCompilers = new SchemaCompilers({ validator: options.validator, schemaController: options.schemaController, serializerOpts: options.serializerOpts, codeCache })
  // A custom querystringParser (Fastify's option) replaces the built-in one and its key limit.
  const parse = options.querystringParser ?? queryParser(limits.maxQueryKeys)
  const constraintStrategies = customStrategiesOf(options)
  if (options.versioning !== undefined) warnVersioningOption()
  const serve = new ServeContext({
    log,
    limits,
    router: createRouter({ ignoreTrailingSlash: options.ignoreTrailingSlash === true, caseSensitive: options.caseSensitive !== false, parseQuery: parse, maxParamLength: limits.maxParamLength, strategies: constraintStrategies }),
    rewriteUrl: options.rewriteUrl ?? null,
    return503OnClosing: options.return503OnClosing === true,
    // As on a matched route (and in Fastify 3's not-found route), a URL without a query is parsed
    // as '': a custom querystringParser decides what that is.
    parseQuery: (url) => { const q = url.indexOf('?'); return parse(q === -1 || fragmentBeforeQuery(url) ? '' : url.slice(q + 1)) },
    deadlines,
    handlerDeadline: limits.handlerTimeout > 0 ? deadlines.list(limits.handlerTimeout, onHandlerExpired) : null,
    bodyDeadline: limits.bodyTimeout > 0 ? deadlines.list(limits.bodyTimeout, onBodyExpired) : null,
    genReqId: options.genReqId,
    requestIdHeader: options.requestIdHeader,
    trust,
    childLogs: logger.pino,
    logSerializers: logger.ownSerializers === true,
    idLabel: typeof options.requestIdLogLabel === 'string' && options.requestIdLogLabel !== '' ? options.requestIdLogLabel : 'reqId',
    // On by default with pino; a hand-made Logger object (often a test's recorder) opts in.
    frameworkErrors: options.frameworkErrors ?? null,
    requestLogging: options.disableRequestLogging === undefined ? logger.pino : !options.disableRequestLogging && log !== silentLogger,
    silent: log === silentLogger,
  })
  serve.serveNotFound = serveNotFound
  const cap = limits.maxPipelinedRequests > 0 ? pipelinedCap(limits.maxPipelinedRequests, pipelinedLimitLog(log, limits.maxPipelinedRequests), closingConnection) : null
  const onRequest = unlessClosing((req, res) => handleRequest(serve, req, res), cap)
  const { server: http, transport } = createNodeServer(options, limits, onRequest)
  const connections = trackConnections(http, transport)
  if (limits.drainTimeout > 0 || limits.maxQueuedBytes > 0) {
    let stop: (() => void) | null = null
    const onQueueLimit = queueLimitLog(log, limits.maxQueuedBytes)
    http.on('listening', () => { stop ??= watchDrains(connections.sockets, limits, onQueueLimit, connections.sessions) })
    http.on('close', () => { stop?.(); stop = null })
  }
  const lifecycle = new ServerLifecycle({ http, transport, serve, connections, releaseLogger: logger.release })
  // Fastify 3 answers such a request 404 (no route is in its router yet), Fastify 5 crashes on it.
  serve.serveBeforeBoot = (req, res) => {
    lifecycle.ready().then(() => { handleRequest(serve, req, res, true) }, (error: unknown) => { answerWithoutReply(res, log, error) })
  }
  const declared = new DeclareContext({
    log,
    server: http,
    defaultParsers: new Map([['application/json', jsonParser(limits.maxJsonDepth, poisonActions)], ['text/plain', textParser]]),
    reservedNames: { request: reservedRequestNames, reply: reservedReplyNames },
    facade: lifecycle,
    initialConfig: initialConfigOf(options, limits),
    makeJsonParser: (actions) => jsonParser(limits.maxJsonDepth, actions),
    routing: routingOf(serve),
    schemaCompilers,
    constraintStrategies,
  })
  const rootScope = new ScopeImpl({ context: declared, parent: null, name: options.name ?? 'root', prefix: '' })
  // Fastify builds the root's bucket with no argument; the compilersFactory is SchemaCompilers' (above).
  const bucket = options.schemaController?.bucket
  if (bucket !== undefined) rootScope.schemas.useBucket(bucket, undefined)
  const { clientErrorHandler } = options
  // Fastify 3's clientErrorHandler replaces the built-in answer to what Node could not parse.
  http.on('clientError', clientErrorHandler === undefined
    ? (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket)
    : (error: NodeJS.ErrnoException, socket: Socket) => callClientErrorHandler(clientErrorHandler, rootScope, log, error, socket))
  // Expect and CONNECT get the JSON error shape too (Node answers a bare 417, or closes a CONNECT
  // without a word), and a 100-continue body is invited only once it is wanted (expect.ts).
  http.on('checkContinue', continueListener(http, onRequest, unlessClosing((req: IncomingMessage, res: ServerResponse) => { deferContinue(req); handleRequest(serve, req, res) }, cap)))
  http.on('checkExpectation', answerExpectationFailed)
  // An HTTP/2 CONNECT is a stream, not a socket: its 501 ends the stream, not the connection.
  // With https.allowHTTP1, an HTTP/1.1 CONNECT reaches the same listener with a socket, not a response.
  if (transport.http2) http.on('connect', (_req: unknown, to: Http2ServerResponse | Socket) => { if ('writeHead' in to) answerHttp2Connect(to); else answerConnect(to) })
  else http.on('connect', (_req: IncomingMessage, socket: Socket) => answerConnect(socket))
  lifecycle.attach({
    declared,
    rootScope,
    serve,
    schemaCompilers,
    schemaErrorFormatter: options.schemaErrorFormatter,
    pluginTimeout: limits.pluginTimeout,
    routing: { ignoreTrailingSlash: options.ignoreTrailingSlash === true, exposeHeadRoutes: options.exposeHeadRoutes !== false },
    schemaCompilation,
    jsonShorthand: options.jsonShorthand !== false,
    profile: new CompileProfile(),
    sharedSchemaWalks: new SharedSchemaWalks(),
    partReuse: new PartReuse(),
    lazyRoutes: [],
    serializerBatch: null,
    resolutions: new Map(),
    failure: null,
    routeRecords: [],
    compiled: false,
  })
  publishInitialization(rootScope)
  return rootScope
}
