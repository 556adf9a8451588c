import { requestHookNames, type BoundHook } from '../shared/bound-hook'
import { decorateClass } from '../declare/decorations'
import { RequestImpl } from '../serve/request'
import { ReplyImpl } from '../serve/reply'
import { ParserTable } from '../serve/body/parser-table'
import type { BodyParser } from '../shared/body-parser'
import type { RequestClass, ReplyClass } from '../serve/compiled-route'
import type { ErrorHandlerEntry } from '../serve/error-reply'
import type { ScopeImpl } from '../declare/scope'
import type { BootContext } from './boot-context'
import { bindDefaultFormatter } from '../schemas/validation-error'
import type { ReplySerializer, SchemaErrorFormatter, SerializerCompiler, ValidatorCompiler } from '../schemas/types'
import type { SchemaCompilation } from '../shared/schema-compilation'

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
  /** The nearest setReplySerializer(). */
  readonly replySerializer: ReplySerializer | null
  readonly schemaErrorFormatter: SchemaErrorFormatter
  /** The nearest scope's setSchemaCompilation() (a module's option), else the server option. */
  readonly schemaCompilation: SchemaCompilation
}

export function resolveScope(boot: BootContext, scope: ScopeImpl): ScopeResolution {
  const done = boot.resolutions.get(scope)
  if (done !== undefined) return done
  const parent = scope.parent === null ? null : resolveScope(boot, scope.parent)
  const hooks: Record<string, readonly BoundHook[]> = {}
  // Ancestors' hooks first, then the scope's own, in declaration order.
  for (const name of requestHookNames) hooks[name] = [...(parent?.hooks[name] ?? []), ...scope.hooks.own(name)]
  const ownHandler: ErrorHandlerEntry[] = scope.ownErrorHandler === null ? [] : [{ fn: scope.ownErrorHandler, scope: scope as never }]
  const resolution: ScopeResolution = {
    hooks,
    Request: decorateClass(parent?.Request ?? RequestImpl, [...scope.decorations.request.values()]),
    Reply: decorateClass(parent?.Reply ?? ReplyImpl, [...scope.decorations.reply.values()]),
    parsers: new ParserTable(mergeParsers(boot, scope)),
    errorHandlers: [...ownHandler, ...(parent?.errorHandlers ?? [])],
    validatorCompiler: scope.ownValidatorCompiler ?? parent?.validatorCompiler ?? null,
    serializerCompiler: scope.ownSerializerCompiler ?? parent?.serializerCompiler ?? null,
    replySerializer: scope.replySerializer ?? parent?.replySerializer ?? null,
    schemaCompilation: scope.schemaCompilation ?? parent?.schemaCompilation ?? boot.schemaCompilation,
    // Bound here, once: spec §4.2 calls a formatter with `this` the scope that holds it (the root
    // for the factory option), also when a descendant's route uses it.
    schemaErrorFormatter: scope.schemaErrorFormatter !== null ? scope.schemaErrorFormatter.bind(scope)
      : parent !== null ? parent.schemaErrorFormatter
        : boot.schemaErrorFormatter !== undefined ? boot.schemaErrorFormatter.bind(scope) : bindDefaultFormatter(scope),
  }
  boot.resolutions.set(scope, resolution)
  return resolution
}

/** The built-in parsers, then each scope's own from the root down: nearer declarations win. */
function mergeParsers(boot: BootContext, scope: ScopeImpl): Map<string, BodyParser> {
  const chain: ScopeImpl[] = []
  for (let s: ScopeImpl | null = scope; s !== null; s = s.parent) chain.unshift(s)
  const merged = new Map(boot.declared.defaultParsers)
  for (const owner of chain) {
    // removeAllContentTypeParsers()/removeContentTypeParser() drop what the scope inherited.
    if (owner.removedAllParsers) merged.clear()
    for (const type of owner.removedParsers) merged.delete(type)
    for (const [type, parser] of owner.parsers) merged.set(type, parser)
  }
  return merged
}
