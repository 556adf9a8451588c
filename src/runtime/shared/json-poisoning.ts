/**
 * What the JSON parser does with a `__proto__` key, or a `constructor` key holding a
 * `prototype`: 'error' refuses the body (400), 'remove' drops the key, 'ignore' keeps it as an
 * own property. Fastify 3's server options `onProtoPoisoning` / `onConstructorPoisoning`, and
 * secure-json-parse's `protoAction` / `constructorAction`.
 */
export type PoisonAction = 'error' | 'remove' | 'ignore'

export interface JsonPoisonActions { readonly protoAction: PoisonAction; readonly constructorAction: PoisonAction }

export const poisonActionNames: readonly PoisonAction[] = ['error', 'remove', 'ignore']

/** The secure default, Fastify's too. */
export const refusePoisoning: JsonPoisonActions = { protoAction: 'error', constructorAction: 'error' }

export function isPoisonAction(value: unknown): value is PoisonAction {
  return value === 'error' || value === 'remove' || value === 'ignore'
}
