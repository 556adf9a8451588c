/** What a Standard Schema (standardschema.dev: zod, valibot, ArkType) carries under `~standard`. */
export interface StandardProps {
  readonly vendor: string
  readonly jsonSchema?: Partial<Record<'input' | 'output', (options: { target: string }) => unknown>>
}

/**
 * The `~standard` props of a Standard Schema (on its prototype, for zod 4), or undefined for
 * anything else (a JSON schema, a schema class).
 */
export function standardOf(value: unknown): StandardProps | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const standard = (value as { '~standard'?: { vendor?: unknown } })['~standard']
  return typeof standard === 'object' && standard !== null && typeof standard.vendor === 'string' ? standard as StandardProps : undefined
}
