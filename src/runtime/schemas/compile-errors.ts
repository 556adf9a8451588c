import type { FrameworkError } from '../errors/framework-error'
import { isSchemaError, schemaError } from './schema-codes'
import type { SchemaStore } from './schema-store'
import { collectRefs } from './schema-walk'

export interface CompileFailure {
  error: unknown
  kind: 'validator' | 'serializer'
  method: string
  url: string
  /** `body`, `querystring`, `params`, `headers` or `response 200` */
  part: string
  scopePath: string
  store: SchemaStore
  schema: unknown
}

/** ajv 6/8 throw MissingRefError with these fields; fast-json-stringify 7 only says it in the message. */
const FJS_MISSING_REF = /Cannot (?:resolve ref|find reference) "([^"]+)"/

/**
 * Turns an error thrown while compiling a route schema part into a coded boot error that names the
 * route, the part and the scope. Unresolvable `$ref`s get their own codes, with where the schema is
 * declared when another scope has it. Errors this area already coded pass through.
 */
export function translateCompileError(failure: CompileFailure): FrameworkError {
  const { error } = failure
  if (isSchemaError(error)) return error
  const missing = missingRefOf(error)
  if (missing !== null) return refError(failure, missing.ref, missing.schemaId)
  const where = `the ${failure.part} schema of route ${failure.method} ${failure.url} in scope ${failure.scopePath}`
  const reason = error instanceof Error ? error.message : String(error)
  return schemaError(failure.kind === 'validator' ? 'ENC_ERR_SCH_VALIDATION_BUILD' : 'ENC_ERR_SCH_SERIALIZATION_BUILD',
    { case: 'route', kind: failure.kind, where, reason }, { cause: error })
}

function missingRefOf(error: unknown): { ref: string; schemaId: string } | null {
  if (typeof error !== 'object' || error === null) return null
  const fields = error as { missingRef?: unknown; missingSchema?: unknown; message?: unknown }
  if (typeof fields.missingRef === 'string') {
    const schemaId = typeof fields.missingSchema === 'string' ? fields.missingSchema : idPart(fields.missingRef)
    return { ref: fields.missingRef, schemaId }
  }
  const match = typeof fields.message === 'string' ? FJS_MISSING_REF.exec(fields.message) : null
  return match === null ? null : { ref: match[1], schemaId: idPart(match[1]) }
}

function idPart(ref: string): string {
  const hash = ref.indexOf('#')
  return hash === -1 ? ref : ref.slice(0, hash)
}

function refError(failure: CompileFailure, reportedRef: string, reportedId: string): FrameworkError {
  // ajv reports the ref resolved against the schema's base URI; name it as the user wrote it.
  const written = collectRefs(failure.schema).find((ref) => {
    const id = idPart(ref)
    return ref === reportedRef || id === reportedId || (id !== '' && reportedId.endsWith(`/${id}`))
  })
  const ref = written ?? reportedRef
  const schemaId = written === undefined ? reportedId : idPart(written)
  const route = `Route ${failure.method} ${failure.url} in scope ${failure.scopePath}`
  const subject = `its ${failure.part} schema (${failure.kind}) references ` +
    `${written === undefined ? 'through a shared schema ' : ''}'${ref}'`
  const options = { cause: failure.error }
  if (schemaId === '') {
    return schemaError('ENC_ERR_SCH_REF_INVALID', { route, subject, local: true }, options)
  }
  const owner = failure.store.getOwner(schemaId)
  if (owner !== null) {
    return schemaError('ENC_ERR_SCH_REF_INVALID', { route, subject, local: false, schemaId, owner: owner.scopePath, inside: ref.slice(schemaId.length) }, options)
  }
  const declaredIn = failure.store.declarations(schemaId).map((store) => store.scopePath)
  const hint = declaredIn.length > 0
    ? `It is declared in ${declaredIn.join(' and in ')}: move it to a common ancestor or lift() that plugin.`
    : `No scope declares it: add it with addSchema() in scope ${failure.scopePath} or an ancestor.`
  return schemaError('ENC_ERR_SCH_REF_NOT_VISIBLE', { route, subject, schemaId, hint }, options)
}
