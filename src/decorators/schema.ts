import type { SharedSchema } from '../runtime/schemas/types'
import type { TypeBoxLike } from '../runtime/typed-schemas'
import { declarationError } from './declaration-error'
import { setSchemaMeta } from './metadata'

/**
 * Declares a shared schema (spec §2.2). It is added to the scope of each module that lists the
 * class in `schemas`, so it is visible there and in that module's descendants (spec §3.3.4).
 * Schemas are application code (spec §1.6): never build one from user input.
 *
 * @example
 * @Schema({ $id: 'user', type: 'object', properties: { name: { type: 'string' } } })
 * class UserSchema {}
 */
export function Schema(schema: SharedSchema | TypeBoxLike): ClassDecorator {
  // A TypeBox schema types its $id optional: the check below is what makes it required.
  const shared = schema as SharedSchema
  return (target) => {
    if (shared === null || typeof shared !== 'object' || typeof shared.$id !== 'string' || shared.$id === '') {
      throw declarationError('ENC_ERR_DECL_SCHEMA_ID', { className: target.name, suggestion: lowerFirst(target.name) })
    }
    setSchemaMeta(target, shared)
  }
}

function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1)
}
