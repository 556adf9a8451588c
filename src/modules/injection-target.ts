/**
 * What one constructor or factory dependency names, read the same way wherever the module tree is
 * checked (dependency-check.ts, dependency-cycle.ts, dependents.ts): a class or token itself;
 * tsyringe's `@inject(token, { isOptional })` / `injectAll()` / `injectWithTransform()` descriptor,
 * which carries the token inside; or `delay(() => X)`, resolved lazily by tsyringe, whose target
 * cannot be read without running it.
 */
export type InjectionTarget =
  | { readonly kind: 'delayed' }
  | { readonly kind: 'token'; readonly token: unknown; readonly isOptional: boolean; readonly transform: unknown }

export function injectionTarget(dep: unknown): InjectionTarget {
  if (dep === null || typeof dep !== 'object') return { kind: 'token', token: dep, isOptional: false, transform: undefined }
  const descriptor = dep as { token?: unknown; isOptional?: boolean; transform?: unknown; createProxy?: unknown }
  if (typeof descriptor.createProxy === 'function') return { kind: 'delayed' }
  const isOptional = descriptor.isOptional === true
  return 'token' in descriptor ? { kind: 'token', token: descriptor.token, isOptional, transform: descriptor.transform }
    : { kind: 'token', token: dep, isOptional, transform: undefined }
}
