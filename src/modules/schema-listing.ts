import { getOwnRoutes, inlinedSchemaOfClass, schemaClassOfRef } from '../decorators/internal'
import { moduleError } from './module-error'
import { walk, type ModuleNode } from './module-tree'

const parts = ['body', 'querystring', 'query', 'params', 'headers'] as const

/**
 * The runtime's "no shared schema 'book' is visible" for a schema class a route uses, retold in
 * module terms: the user listed no `$ref` and called no addSchema(), they forgot `schemas: [Book]`.
 * Any other error (or a reference not made from a schema class) is returned as it is.
 */
export function inModuleTerms(error: unknown, root: ModuleNode): unknown {
  if ((error as { code?: unknown } | null)?.code !== 'ENC_ERR_SCH_REF_NOT_VISIBLE') return error
  const message = String((error as Error).message)
  for (const node of walk(root)) {
    for (const controller of node.controllers) {
      for (let c: unknown = controller; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
        for (const route of getOwnRoutes(c as Function)) {
          for (const [subject, part] of schemaParts(route.options.schema)) for (const cls of classRefsIn(part)) {
            if (!message.includes(`no shared schema '${String(cls.schema.$id)}' is visible`) || listedFrom(node, cls)) continue
            return moduleError('ENC_ERR_MODULE_SCHEMA_NOT_LISTED', {
              where: `${route.methods.join(',')} route ${controller.name}.${String(route.propertyKey)} in ${node.path}`,
              subject, name: cls.name, id: String(cls.schema.$id), module: node.type.name,
            }, { cause: error })
          }
        }
      }
    }
  }
  return error
}

function schemaParts(schema: unknown): Array<[string, unknown]> {
  if (schema === null || typeof schema !== 'object') return []
  const s = schema as Record<string, unknown>
  const found: Array<[string, unknown]> = parts.filter((p) => s[p] !== undefined).map((p) => [`${p} schema`, s[p]])
  if (s.response !== null && typeof s.response === 'object') {
    for (const [status, r] of Object.entries(s.response)) found.push([`response ${status} schema`, r])
  }
  return found
}

type SchemaClassValue = NonNullable<ReturnType<typeof schemaClassOfRef>>

/** The schema classes a part refers to by `$ref`: the part itself, or nested in it (`items: Cat`). */
function classRefsIn(part: unknown, found: SchemaClassValue[] = []): SchemaClassValue[] {
  if (part === null || typeof part !== 'object') return found
  const cls = schemaClassOfRef(part)
  if (cls !== undefined) found.push(cls)
  else for (const sub of Object.values(part)) classRefsIn(sub, found)
  return found
}

function listedFrom(node: ModuleNode, cls: SchemaClassValue): boolean {
  // A module lists the class's schema as placed at boot (a copy when it nests classes).
  const listed = [cls.schema, inlinedSchemaOfClass(cls)]
  for (let n: ModuleNode | null = node; n !== null; n = n.parent) if (listed.some((s) => n.schemas.includes(s as never))) return true
  return false
}
