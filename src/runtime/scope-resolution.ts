import type { BoundHook } from './hooks'
import { requestHookNames } from './hooks'
import { decorateClass } from './decorations'
import { RequestImpl } from './request'
import { ReplyImpl } from './reply'
import { ParserTable, type BodyParser } from './body/parser-table'
import type { RequestClass, ReplyClass } from './compiled-route'
import type { ErrorHandlerEntry } from './error-reply'
import type { ScopeImpl } from './scope'
import { defaultSchemaErrorFormatter } from './schemas'
import type { SchemaErrorFormatter, SerializerCompiler, ValidatorCompiler } from './schemas/types'

/**
 * What one scope sees, resolved once at boot from its ancestors' resolution and its own
 * stores (DESIGN §4). Routes read this; nothing walks the scope chain per request.
 */
export interface ScopeResolution {
  readonly hooks: Readonly<Record<string, readonly BoundHook[]>>
  readonly Request: RequestClass
  readonly Reply: ReplyClass
  readonly parsers: ParserTable
  /** Nearest first. */
  readonly errorHandlers: readonly ErrorHandlerEntry[]
  readonly validatorCompiler: ValidatorCompiler | null
  readonly serializerCompiler: SerializerCompiler | null
  readonly schemaErrorFormatter: SchemaErrorFormatter
}

export function resolveScope(scope: ScopeImpl): ScopeResolution {
  if (scope.resolution !== null) return scope.resolution
  const parent = scope.parent === null ? null : resolveScope(scope.parent)
  const hooks: Record<string, readonly BoundHook[]> = {}
  // Ancestors' hooks first, then the scope's own, in declaration order.
  for (const name of requestHookNames) hooks[name] = [...(parent?.hooks[name] ?? []), ...scope.hooks.own(name)]
  const ownHandler: ErrorHandlerEntry[] = scope.errorHandler === null ? [] : [{ fn: scope.errorHandler, scope: scope as never }]
  const resolution: ScopeResolution = {
    hooks,
    Request: decorateClass(parent?.Request ?? RequestImpl, [...scope.decorations.request.values()]),
    Reply: decorateClass(parent?.Reply ?? ReplyImpl, [...scope.decorations.reply.values()]),
    parsers: new ParserTable(mergeParsers(scope)),
    errorHandlers: [...ownHandler, ...(parent?.errorHandlers ?? [])],
    validatorCompiler: scope.validatorCompiler ?? parent?.validatorCompiler ?? null,
    serializerCompiler: scope.serializerCompiler ?? parent?.serializerCompiler ?? null,
    // Bound here, once: spec §4.2 calls a formatter with `this` the scope that holds it (the root
    // for the factory option), also when a descendant's route uses it.
    schemaErrorFormatter: scope.schemaErrorFormatter !== null ? scope.schemaErrorFormatter.bind(scope)
      : parent !== null ? parent.schemaErrorFormatter
        : (scope.context.options.schemaErrorFormatter ?? defaultSchemaErrorFormatter).bind(scope),
  }
  scope.resolution = resolution
  return resolution
}

/** The built-in parsers, then each scope's own from the root down: nearer declarations win. */
function mergeParsers(scope: ScopeImpl): Map<string, BodyParser> {
  const chain: ScopeImpl[] = []
  for (let s: ScopeImpl | null = scope; s !== null; s = s.parent) chain.unshift(s)
  const merged = new Map(scope.context.defaultParsers)
  for (const owner of chain) for (const [type, parser] of owner.parsers) merged.set(type, parser)
  return merged
}
