/**
 * express 5 as its users write it: express.json(), an ajv 6 validation middleware per route
 * (same options as fastify 3) and res.json(). express has no response schemas, so responses go
 * through JSON.stringify; the payloads hold only schema properties, so the bytes are the same.
 * ETag and X-Powered-By are off: they cost time and no other contender does them.
 */
import express, { Request, Response, NextFunction } from 'express'
import Ajv from 'ajv'
import { itemsSchema, searchSchema, twoPayload, searchHits } from './schemas'
import { HOST, portFromArgv, announceReady, failStart } from './ready-line'

const ajv = new Ajv({ removeAdditional: true, useDefaults: true, coerceTypes: true, nullable: true, jsonPointers: true })

function badRequest(res: Response, message: string): void {
  res.status(400).json({ statusCode: 400, error: 'Bad Request', message })
}

function validate(part: 'body' | 'query', schema: object) {
  const check = ajv.compile(schema)
  const dataVar = part === 'body' ? 'body' : 'querystring'
  return (req: Request, res: Response, next: NextFunction): void => {
    // express 5 re-parses req.query on every read, so coercion has to land on a copy.
    const data = part === 'body' ? req.body : { ...req.query }
    if (!check(data)) {
      badRequest(res, (check.errors ?? []).map((e) => `${dataVar}${e.dataPath} ${e.message}`).join(', '))
      return
    }
    res.locals[part] = data
    next()
  }
}

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
app.use((error: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
  if (error.status === 400) return badRequest(res, error.message)
  res.status(error.status ?? 500).json({ statusCode: error.status ?? 500, error: 'Error', message: error.message })
})

const server = app.listen(portFromArgv(), HOST, (error?: Error) => {
  if (error) failStart(error)
  announceReady(server.address())
})
