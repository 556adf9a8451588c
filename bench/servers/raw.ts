/**
 * The practical limit of "compile schemas, resolve nothing per request": node:http, one `if`
 * per route, ajv 6 (fastify 3's options) and fast-json-stringify called directly. No hooks, no
 * request objects. The 1,000-route table of the `router` endpoint goes through find-my-way, the
 * router a hand-written server of that size would use. A framework of this design cannot beat
 * it; the question is how close it stays.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http'
import { parse as parseQuery } from 'node:querystring'
import Ajv from 'ajv'
import fastJson from 'fast-json-stringify'
import FindMyWay from 'find-my-way'
import { twoSchema, itemsSchema, searchSchema, twoPayload, searchHits } from './schemas'
import { listSchema, listPayload } from './list-schema'
import { bulkSchema, bulkSummary, Bulk } from './bulk-schema'
import { headersSchema, headersAnswer } from './headers-schema'
import { routerRoutes, routerSchema, routerAnswer, RouterRoute } from './router-routes'
import { STRICT_PATH } from './all-errors'
import { ajv6Options, ajv6AllErrorsOptions } from './ajv-options'
import { HOST, portFromArgv, announceReady, failStart } from './ready-line'

const BODY_LIMIT = 1024 * 1024
const JSON_TYPE = 'application/json; charset=utf-8'

const ajv = new Ajv(ajv6Options)
const ajvAll = new Ajv(ajv6AllErrorsOptions)
const validateItem = ajv.compile(itemsSchema.body)
const validateItemAll = ajvAll.compile(itemsSchema.body)
const validateSearch = ajv.compile(searchSchema.querystring)
const validateBulk = ajv.compile(bulkSchema.body)
const validateHeaders = ajv.compile(headersSchema.headers)
const stringify = (schema: object) => fastJson(schema as Parameters<typeof fastJson>[0])
const serializeTwo = stringify(twoSchema.response[200])
const serializeItem = stringify(itemsSchema.response[201])
const serializeSearch = stringify(searchSchema.response[200])
const serializeList = stringify(listSchema.response[200])
const serializeBulk = stringify(bulkSchema.response[200])
const serializeHeaders = stringify(headersSchema.response[200])
const serializeRoute = stringify(routerSchema.response[200])
const serializeError = stringify({
  type: 'object',
  properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' } },
})

type Validate = Ajv.ValidateFunction

function send(res: ServerResponse, statusCode: number, body: string): void {
  res.writeHead(statusCode, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

function sendError(res: ServerResponse, statusCode: number, error: string, message: string): void {
  send(res, statusCode, serializeError({ statusCode, error, message }))
}

function validationMessage(dataVar: string, errors: Ajv.ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${dataVar}${e.dataPath} ${e.message}`).join(', ')
}

/** Reads, parses and validates a JSON body, then hands it to `done`; answers 4xx itself. */
function readJson(req: IncomingMessage, res: ServerResponse, validate: Validate, done: (body: unknown) => void): void {
  const type = req.headers['content-type']
  if (type === undefined || !type.startsWith('application/json')) {
    return sendError(res, 415, 'Unsupported Media Type', `Unsupported Media Type: ${type ?? 'none'}`)
  }
  let text = ''
  let received = 0
  req.setEncoding('utf8')
  req.on('data', (chunk: string) => {
    received += chunk.length
    if (received > BODY_LIMIT) {
      sendError(res, 413, 'Payload Too Large', 'Request body is too large')
      req.destroy()
      return
    }
    text += chunk
  })
  req.on('end', () => {
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return sendError(res, 400, 'Bad Request', 'Body is not valid JSON')
    }
    if (!validate(body)) return sendError(res, 400, 'Bad Request', validationMessage('body', validate.errors))
    done(body)
  })
}

function onSearch(res: ServerResponse, search: string): void {
  const query: Record<string, unknown> = parseQuery(search)
  if (!validateSearch(query)) return sendError(res, 400, 'Bad Request', validationMessage('querystring', validateSearch.errors))
  send(res, 200, serializeSearch(searchHits(query.q as string, query.limit as number)))
}

function onHeaders(req: IncomingMessage, res: ServerResponse): void {
  if (!validateHeaders(req.headers)) return sendError(res, 400, 'Bad Request', validationMessage('headers', validateHeaders.errors))
  send(res, 200, serializeHeaders(headersAnswer(req.headers)))
}

const router = FindMyWay<FindMyWay.HTTPVersion.V1>()
for (const route of routerRoutes) {
  router.on(route.method, route.path, () => undefined, route)
}

function onRoute(req: IncomingMessage, res: ServerResponse, path: string): boolean {
  const found = router.find(req.method as FindMyWay.HTTPMethod, path)
  if (found === null) return false
  send(res, 200, serializeRoute(routerAnswer(found.store as RouterRoute, found.params as Record<string, string>)))
  return true
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/'
  const mark = url.indexOf('?')
  const path = mark === -1 ? url : url.slice(0, mark)
  const method = req.method
  if (method === 'GET' && path === '/two') return send(res, 200, serializeTwo(twoPayload))
  if (method === 'POST' && path === '/items') return readJson(req, res, validateItem, (body) => send(res, 201, serializeItem(body)))
  if (method === 'GET' && path === '/search') return onSearch(res, mark === -1 ? '' : url.slice(mark + 1))
  if (method === 'GET' && path === '/list') return send(res, 200, serializeList(listPayload))
  if (method === 'POST' && path === '/bulk') return readJson(req, res, validateBulk, (body) => send(res, 200, serializeBulk(bulkSummary(body as Bulk))))
  if (method === 'GET' && path === '/headers') return onHeaders(req, res)
  if (method === 'POST' && path === STRICT_PATH) return readJson(req, res, validateItemAll, (body) => send(res, 201, serializeItem(body)))
  if (onRoute(req, res, path)) return
  sendError(res, 404, 'Not Found', `Route ${method}:${path} not found`)
}

const server = createServer(handle)
server.on('error', failStart)
server.listen(portFromArgv(), HOST, () => announceReady(server.address()))
