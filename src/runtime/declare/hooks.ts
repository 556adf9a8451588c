import { runtimeError } from '../errors/runtime-codes'
import type { HookName, Scope } from '../types'
import { bindHook, requestHookNames, type BoundHook } from '../shared/bound-hook'

export const appHookNames = ['onRoute', 'onRegister', 'onReady', 'preClose', 'onClose'] as const
const allHookNames: ReadonlySet<string> = new Set<string>([...requestHookNames, ...appHookNames])

export function assertHook(name: string, fn: unknown, where: string): void {
  if (!allHookNames.has(name)) {
    throw runtimeError('ENC_ERR_HOOK_INVALID_NAME', { name, path: where, known: [...allHookNames] })
  }
  if (typeof fn !== 'function') {
    throw runtimeError('ENC_ERR_HOOK_INVALID_HANDLER', { where: `addHook('${name}') in ${where}`, problem: 'not-a-function', got: typeof fn })
  }
  assertNotAsyncWithDone(name, fn, `addHook('${name}') in ${where}`)
}

/**
 * A request-path or onReady hook that is async and also takes `done` is refused (as Fastify 3
 * does): it is run in callback style, so a forgotten `done()` would leave the request (or the
 * boot) hanging. onClose and preClose are not: Fastify takes either, whichever comes first.
 */
export function assertNotAsyncWithDone(name: string, fn: Function, where: string): void {
  if (!(requestHookNames as readonly string[]).includes(name) && name !== 'onReady') return
  if (fn.constructor.name !== 'AsyncFunction') return
  if (name === 'preParsing' ? fn.length >= 4 : bindHook(name, fn, null as never).callback) {
    throw runtimeError('ENC_ERR_HOOK_INVALID_HANDLER', { where, problem: 'async-with-done' })
  }
}

/** The hooks one scope declared itself, by name, in declaration order. */
export class HookStore {
  readonly #hooks = new Map<string, BoundHook[]>()

  add(name: HookName, fn: Function, scope: Scope): BoundHook {
    let list = this.#hooks.get(name)
    if (list === undefined) this.#hooks.set(name, list = [])
    const hook = bindHook(name, fn, scope)
    list.push(hook)
    return hook
  }

  /** Every own hook with its name, in declaration order per name (for introspection). */
  all(): Array<[string, BoundHook]> {
    return [...this.#hooks].flatMap(([name, list]) => list.map((hook): [string, BoundHook] => [name, hook]))
  }

  own(name: string): readonly BoundHook[] {
    return this.#hooks.get(name) ?? []
  }
}
