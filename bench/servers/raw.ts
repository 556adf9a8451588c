/**
 * The practical limit of "compile schemas, resolve nothing per request": node:http, one `if`
 * per route, ajv 6 (fastify 3's options) and fast-json-stringify called directly. No hooks, no
 * request objects, no router. A framework of this design cannot beat it; the question is how
 * close it stays.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http'
import { parse as parseQuery } from 'node:querystring'
import Ajv from 'ajv'
import fastJson from 'fast-json-stringify'
import { twoSchema, itemsSchema, searchSchema, twoPayload, searchHits } from './schemas'
import { HOST, portFromArgv, announceReady, failStart } from './ready-line'

const BODY_LIMIT = 1024 * 1024
const JSON_TYPE = 'application/json; charset=utf-8'

const ajv = new Ajv({ removeAdditional: true, useDefaults: true, coerceTypes: true, nullable: true, jsonPointers: true })
const validateItem = ajv.compile(itemsSchema.body)
const validateSearch = ajv.compile(searchSchema.querystring)
const stringify = (schema: object) => fastJson(schema as Parameters<typeof fastJson>[0])
const serializeTwo = stringify(twoSchema.response[200])
const serializeItem = stringify(itemsSchema.response[201])
const serializeSearch = stringify(searchSchema.response[200])
const serializeError = stringify({
  type: 'object',
  properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' } },
})

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

function onItem(res: ServerResponse, text: string): void {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return sendError(res, 400, 'Bad Request', 'Body is not valid JSON')
  }
  if (!validateItem(body)) return sendError(res, 400, 'Bad Request', validationMessage('body', validateItem.errors))
  send(res, 201, serializeItem(body))
}

function readItem(req: IncomingMessage, res: ServerResponse): void {
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
  req.on('end', () => onItem(res, text))
}

function onSearch(res: ServerResponse, search: string): void {
  const query: Record<string, unknown> = parseQuery(search)
  if (!validateSearch(query)) return sendError(res, 400, 'Bad Request', validationMessage('querystring', validateSearch.errors))
  send(res, 200, serializeSearch(searchHits(query.q as string, query.limit as number)))
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/'
  const mark = url.indexOf('?')
  const path = mark === -1 ? url : url.slice(0, mark)
  if (req.method === 'GET' && path === '/two') return send(res, 200, serializeTwo(twoPayload))
  if (req.method === 'POST' && path === '/items') return readItem(req, res)
  if (req.method === 'GET' && path === '/search') return onSearch(res, mark === -1 ? '' : url.slice(mark + 1))
  sendError(res, 404, 'Not Found', `Route ${req.method}:${path} not found`)
}

const server = createServer(handle)
server.on('error', failStart)
server.listen(portFromArgv(), HOST, () => announceReady(server.address()))
