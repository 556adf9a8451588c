import { getParams } from '../decorators/internal'
import { moduleError } from './module-error'

/**
 * `@Body()` on a method whose routes are all GET or HEAD. Their bodies are never parsed (Fastify 3's
 * handleRequest skips the parser for both), so the parameter is `null` on every request: NestJS
 * users write `@Get() search(@Body() filters)` and get a handler that silently sees nothing. Boot
 * fails instead, naming the route and the two ways out. A method that also has a route taking a
 * body (`@Get() @Post()`) reads it on that route and `null` on the GET one, as NestJS does: allowed.
 * `@Body('name', schema)` too: one check, before the parameter-schema merge (param-schemas.ts).
 */
export function checkBodyReadable(declaringClass: Function, key: string | symbol, where: string, methods: readonly string[]): void {
  if (methods.length === 0 || !methods.every(bodiless)) return
  const body = getParams(declaringClass, key).filter((p) => p.source === 'body')
  if (body.length === 0) return
  throw moduleError('ENC_ERR_MODULE_BODY_NOT_PARSED', { where, params: body.map((p) => `@Body(${p.key === null ? '' : `'${p.key}'`}) (parameter ${p.index})`) })
}

function bodiless(method: string): boolean {
  const upper = method.toUpperCase()
  return upper === 'GET' || upper === 'HEAD'
}
