import type { InjectionToken } from 'tsyringe'
import { isProviderScope, type ProviderEntry } from '../decorators/internal'
import type { ProviderOverride } from './app-options'
import { closestTokens, describeToken, moduleError, plainName } from './module-error'
import { walk, type ModuleNode } from './module-tree'
import { toProviderSpec } from './providers'
import { Logger } from './logger-token'
import { dependentsOf } from './dependents'

/** Token -> the provider entry that replaces every declaration of that token. */
export type OverrideTable = ReadonlyMap<InjectionToken, ProviderEntry>

/**
 * Checks `createApp({ overrides })` against the tree: each entry is `[token, recipe]` with exactly
 * one of useValue / useClass / useFactory, each token at most once, and each token declared by
 * some module (an override of nothing is a typo that would leave the real provider running).
 */
export function overrideTable(root: ModuleNode, overrides: readonly ProviderOverride[] | undefined): OverrideTable {
  const table = new Map<InjectionToken, ProviderEntry>()
  if (overrides === undefined) return table
  if (!Array.isArray(overrides)) throw overrideError(`overrides must be an array of [Token, { useValue | useClass | useFactory }] entries.`)
  // The framework provides Logger to every module: a test may replace it (to read what services log).
  const declared = new Set<unknown>([Logger])
  for (const node of walk(root)) for (const entry of node.meta.providers) declared.add(toProviderSpec(entry).token)
  for (const item of overrides) {
    const [token, recipe] = Array.isArray(item) ? item : [undefined, undefined]
    const uses = recipe !== null && typeof recipe === 'object' ? ['useValue', 'useClass', 'useFactory'].filter((k) => k in recipe) : []
    if (token === undefined || token === null || uses.length !== 1) {
      throw overrideError(`each overrides entry is [Token, recipe] with exactly one of useValue, useClass, useFactory; got ${describeEntry(item)}.`)
    }
    if ('dispose' in recipe && (uses[0] !== 'useFactory' || typeof (recipe as { dispose?: unknown }).dispose !== 'function')) {
      throw overrideError(`the override of ${describeToken(token)} has a dispose that is not a function, or one beside useValue/useClass: dispose releases what a useFactory built.`)
    }
    const scope = (recipe as { scope?: unknown }).scope
    if ('scope' in recipe && (uses[0] === 'useValue' || !isProviderScope(scope))) {
      throw overrideError(`the override of ${describeToken(token)} has scope ${typeof scope === 'string' ? `'${scope}'` : String(scope)}: scope is 'request' or 'singleton', on a useClass or useFactory recipe.`)
    }
    if (table.has(token)) throw overrideError(`${describeToken(token)} is overridden twice. Keep one entry.`)
    if (!declared.has(token)) {
      const near = [...declared].filter((t) => plainName(t) === plainName(token))
      near.push(...closestTokens(token, [...declared].filter((t) => !near.includes(t))))
      // Injected yet provided nowhere: a module booted alone (NestJS's Test.createTestingModule habit), which overrides cannot complete.
      const neededBy = near.length > 0 ? [] : dependentsOf(root, token)
      throw moduleError('ENC_ERR_MODULE_OVERRIDE_UNKNOWN', { root: root.type.name, path: root.path, token: describeToken(token), near: near.map(describeToken), neededBy })
    }
    table.set(token, { provide: token, ...recipe } as ProviderEntry)
  }
  return table
}

function overrideError(message: string): Error {
  return moduleError('ENC_ERR_MODULE_OVERRIDE_INVALID', { problem: message })
}

function describeEntry(item: unknown): string {
  if (!Array.isArray(item)) return item === null ? 'null' : typeof item
  return `[${item.map((x) => (typeof x === 'function' ? describeToken(x) : typeof x)).join(', ')}]`
}

