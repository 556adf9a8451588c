/**
 * express 5 as its users write it: express.json(), an ajv 6 validation middleware per route
 * (same options as fastify 3) and res.json(). express has no response schemas, so responses go
 * through JSON.stringify; the payloads hold only schema properties, so the bytes are the same.
 * ETag and X-Powered-By are off: they cost time and no other contender does them.
 */
import express, { Request, Response, NextFunction } from 'express'
import Ajv from 'ajv'
import { itemsSchema, searchSchema, twoPayload, searchHits } from './schemas'
import { listPayload } from './list-schema'
import { bulkSchema, bulkSummary, Bulk } from './bulk-schema'
import { headersSchema, headersAnswer } from './headers-schema'
import { routerRoutes, routerAnswer, RouteMethod } from './router-routes'
import { STRICT_PATH } from './all-errors'
import { ajv6Options, ajv6AllErrorsOptions } from './ajv-options'
import { HOST, portFromArgv, announceReady, failStart } from './ready-line'

const ajv = new Ajv(ajv6Options)
const ajvAll = new Ajv(ajv6AllErrorsOptions)

function badRequest(res: Response, message: string): void {
  res.status(400).json({ statusCode: 400, error: 'Bad Request', message })
}

const dataVars = { body: 'body', query: 'querystring', headers: 'headers' } as const

function validate(part: 'body' | 'query' | 'headers', schema: object, compiler: Ajv.Ajv = ajv) {
  const check = compiler.compile(schema)
  const dataVar = dataVars[part]
  return (req: Request, res: Response, next: NextFunction): void => {
    // express 5 re-parses req.query on every read, so coercion has to land on a copy.
    const data = part === 'query' ? { ...req.query } : req[part]
    if (!check(data)) {
      badRequest(res, (check.errors ?? []).map((e) => `${dataVar}${e.dataPath} ${e.message}`).join(', '))
      return
    }
    res.locals[part] = data
    next()
  }
}

const methods: Record<RouteMethod, 'get' | 'post' | 'put' | 'patch' | 'delete'> = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' }

const app = express()
app.disable('etag')
app.disable('x-powered-by')
app.use(express.json({ limit: '1mb' }))

app.get('/two', (_req, res) => {
  res.json(twoPayload)
})
app.post('/items', validate('body', itemsSchema.body), (_req, res) => {
  res.status(201).json(res.locals.body)
})
app.get('/search', validate('query', searchSchema.querystring), (_req, res) => {
  const query = res.locals.query as { q: string; limit: number }
  res.json(searchHits(query.q, query.limit))
})
app.get('/list', (_req, res) => {
  res.json(listPayload)
})
app.post('/bulk', validate('body', bulkSchema.body), (_req, res) => {
  res.json(bulkSummary(res.locals.body as Bulk))
})
app.get('/headers', validate('headers', headersSchema.headers), (_req, res) => {
  res.json(headersAnswer(res.locals.headers as Record<string, unknown>))
})
for (const route of routerRoutes) {
  app[methods[route.method]](route.path, (req: Request, res: Response) => {
    res.json(routerAnswer(route, req.params as Record<string, string>))
  })
}
// The allErrors scope: a router with its own ajv, as express users group routes.
const strict = express.Router()
strict.post('/', validate('body', itemsSchema.body, ajvAll), (_req, res) => {
  res.status(201).json(res.locals.body)
})
app.use(STRICT_PATH, strict)
app.use((error: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
  if (error.status === 400) return badRequest(res, error.message)
  res.status(error.status ?? 500).json({ statusCode: error.status ?? 500, error: 'Error', message: error.message })
})

const server = app.listen(portFromArgv(), HOST, (error?: Error) => {
  if (error) failStart(error)
  announceReady(server.address())
})
