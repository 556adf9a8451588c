import { translateCompileError } from './compile-errors'
import { toPartValidator } from './part-validator'
import { guardNonFinite, refusesNonFinite } from './finite-guard'
import { createResponseSerializers, type ResponseSerializers } from './response-serializers'
import { normalizeRouteSchema } from './route-schema'
import { responseHeadersOf, withoutResponseHeaders } from './response-headers'
import { describeValue, schemaError } from './schema-codes'
import { deferredSerializer, type DeferredResponses } from './deferred-serializer'
import type { SchemaCompilers } from './schema-compilers'
import type { SchemaStore } from './schema-store'
import type { PartReuse } from './part-reuse'
import type { HttpPart, JsonSchema, NormalizedRouteSchema, PartValidator, SerializeFunction, SerializerCompiler, ValidatorCompiler } from './types'

export interface CompileRouteSchemasInput {
  method: string
  url: string
  scopePath: string
  /** The route option `schema` as the user gave it, or null. */
  schema: unknown
  /** The same schema already through normalizeRouteSchema (boot keeps it for introspection); absent: normalized here. */
  normalized?: NormalizedRouteSchema
  /** createServer({ jsonShorthand }): false reads each part as a complete schema (normalizeRouteSchema). */
  shorthand?: boolean
  /** The route scope's store: its visible shared schemas feed the default compilers. */
  store: SchemaStore
  compilers: SchemaCompilers
  /** The route option, else the nearest scope's setValidatorCompiler(); null: the default for `store`. */
  validatorCompiler: ValidatorCompiler | null
  /** The route option, else the nearest scope's setSerializerCompiler(); null: the default for `store`. */
  serializerCompiler: SerializerCompiler | null
  /** Refuse unknown keywords for the default compilers; defaults to "no compiler given". */
  checkValidatorKeywords?: boolean
  checkSerializerKeywords?: boolean
  /**
   * Build each response serializer when its status is first sent (a lazy route's first request,
   * with the default serializer compiler); absent: all of them now. The keyword check still runs now.
   */
  deferResponses?: DeferredResponses
  /**
   * Eager boot's second pass (boot/serializer-batch.ts): the response serializers are built when
   * `finish` is called, into the `response` object returned now. Given the route's first queued
   * build, before anything after it can fail. The keyword checks still run now.
   */
  batchResponses?: (finish: () => void) => void
  /**
   * Eager boot's validator pass (boot/serializer-batch.ts): each part's validator is compiled when
   * its `build` is called, into the object returned now, before any serializer. The keyword
   * checks still run now.
   */
  batchValidators?: (build: () => void) => void
  /** Eager boot's shared copies (part-reuse.ts): a copy that passed the keyword check for an earlier route is not walked again. */
  reuse?: PartReuse
}

/** One route's compiled schemas; a field is null when the route has no schema for it. */
export interface CompiledRouteSchemas {
  params: PartValidator | null
  /** Compiled and applied whatever the method and content type (issue 12 §1: a body schema is never bypassed). */
  body: PartValidator | null
  /**
   * The body validator for a body the built-in JSON parser made (and no hook replaced): no finite
   * walk after the default validator, since that parser refuses overflowing literals. Else `body`.
   */
  jsonBody: PartValidator | null
  querystring: PartValidator | null
  headers: PartValidator | null
  response: ResponseSerializers | null
}

const NO_ENTRIES: ReadonlyArray<readonly [string, SerializeFunction]> = []

/** The order in which the runtime validates (DESIGN §5); the first failing part is reported. */
const PARTS: readonly HttpPart[] = ['params', 'body', 'querystring', 'headers']

/**
 * Compiles a route's schema at boot: normalizes it, then builds one PartValidator per request part and
 * the response serializers. Any failure is a coded boot error naming the method, url, part and scope
 * (ENC_ERR_SCH_VALIDATION_BUILD, ENC_ERR_SCH_SERIALIZATION_BUILD, ENC_ERR_SCH_REF_NOT_VISIBLE, ...).
 *
 * @example
 * const compiled = compileRouteSchemas({ method: 'POST', url: '/users', scopePath: 'root', schema,
 *   store: scope.schemas, compilers, validatorCompiler: null, serializerCompiler: null })
 */
export function compileRouteSchemas(input: CompileRouteSchemasInput): CompiledRouteSchemas {
  const { method, url, scopePath, store } = input
  const normalized = input.normalized ?? normalizeRouteSchema(input.schema, { method, url, scopePath }, input.shorthand)
  const compiled: CompiledRouteSchemas = { params: null, body: null, jsonBody: null, querystring: null, headers: null, response: null }

  // The default compiler is looked up only when a part needs it: a route without schemas builds no ajv.
  let validatorCompiler = input.validatorCompiler
  // Indexed loops here: boot runs this once a route before V8 optimizes it, and for-of and
  // Object.entries allocated iterators, results and entry arrays per route (~0.9 MB per 1,000).
  for (let p = 0; p < PARTS.length; p++) {
    const part = PARTS[p]
    const schema = normalized[part]
    if (schema === null) continue
    if (input.checkValidatorKeywords ?? input.validatorCompiler === null) input.compilers.checkKeywords(schema, store, `The ${part} schema of route ${method} ${url} in scope ${scopePath}`, input.reuse)
    const build = (): void => {
      const compiler = validatorCompiler ??= input.compilers.validatorFor(store)
      // As in Fastify: a compiler that returns undefined declines the part (no validation for it).
      const fn = compileWith(() => compiler({ schema, method, url, httpPart: part }), { kind: 'validator', part, schema, input }, true)
      if (fn === undefined) return
      const validator = toPartValidator(fn, { method, url, part })
      compiled[part] = guardNonFinite(validator, fn, schema, part)
      if (part === 'body') compiled.jsonBody = refusesNonFinite(fn) ? validator : compiled.body
    }
    // Queued before the next part's keyword check, which may throw: this validator came first.
    if (input.batchValidators === undefined) build()
    else input.batchValidators(build)
  }

  if (normalized.response !== null) {
    const serializerCompiler = input.serializerCompiler ?? input.compilers.serializerFor(store)
    const byKey: Array<[string, SerializeFunction]> = []
    const batched: Array<[string, () => SerializeFunction | undefined]> = []
    let filledLater: ResponseSerializers | null = null
    const response = normalized.response
    const statuses = Object.keys(response)
    for (let k = 0; k < statuses.length; k++) {
      const httpStatus = statuses[k]
      const schema = response[httpStatus]
      if (input.checkSerializerKeywords ?? input.serializerCompiler === null) {
        const where = `The response ${httpStatus} schema of route ${method} ${url} in scope ${scopePath}`
        input.compilers.checkKeywords(withoutResponseHeaders(schema), store, where, input.reuse)
        const headers = responseHeadersOf(schema)
        if (headers !== null) for (const name of Object.keys(headers)) input.compilers.checkKeywords(headers[name], store, `${where}, header '${name}'`, input.reuse)
      }
      const build = (): SerializeFunction | undefined => compileWith(() => serializerCompiler({ schema, method, url, httpStatus }),
        { kind: 'serializer', part: `response ${httpStatus}`, schema, input }, true)
      if (input.batchResponses !== undefined) {
        // Queued before the next status's keyword check, which may throw: this build came first.
        if (filledLater === null) {
          const target = filledLater = createResponseSerializers(NO_ENTRIES)
          input.batchResponses(() => finishBatched(batched, target))
        }
        batched.push([httpStatus, build])
        continue
      }
      if (input.deferResponses !== undefined) {
        byKey.push([httpStatus, deferredSerializer(build, input.deferResponses)])
        continue
      }
      // As in Fastify: undefined declines that status (its payloads are sent as plain JSON).
      const fn = build()
      if (fn !== undefined) byKey.push([httpStatus, fn])
    }
    if (byKey.length > 0) compiled.response = createResponseSerializers(byKey)
    // Filled in by finishBatched: CompiledRoute keeps this object, so it sees the serializers then.
    else if (filledLater !== null) compiled.response = filledLater
  }
  return compiled
}

/** Builds the batched statuses in their order and fills the route's (so far empty) serializers. */
function finishBatched(batched: ReadonlyArray<readonly [string, () => SerializeFunction | undefined]>, response: ResponseSerializers): void {
  const byKey: Array<[string, SerializeFunction]> = []
  for (let i = 0; i < batched.length; i++) {
    const fn = batched[i][1]()
    if (fn !== undefined) byKey.push([batched[i][0], fn])
  }
  Object.assign(response, createResponseSerializers(byKey))
}

interface CompileSite {
  kind: 'validator' | 'serializer'
  part: string
  schema: JsonSchema
  input: CompileRouteSchemasInput
}

function compileWith<F>(compile: () => F, site: CompileSite): F
function compileWith<F>(compile: () => F, site: CompileSite, mayDecline: true): F | undefined
function compileWith<F>(compile: () => F, site: CompileSite, mayDecline = false): F | undefined {
  const { method, url, scopePath, store } = site.input
  let fn: F
  try {
    fn = compile()
  } catch (error) {
    throw translateCompileError({ error, kind: site.kind, method, url, part: site.part, scopePath, store, schema: site.schema })
  }
  if (fn === undefined && mayDecline) return undefined
  if (typeof fn !== 'function') {
    throw schemaError(site.kind === 'validator' ? 'ENC_ERR_SCH_VALIDATION_BUILD' : 'ENC_ERR_SCH_SERIALIZATION_BUILD',
      { case: 'returned', kind: site.kind, got: describeValue(fn), part: site.part, method, url, scopePath })
  }
  return fn
}
