import { runtimeError } from '../errors/runtime-codes'

/**
 * When route schemas become validators and serializers. `eager` (the default): all of them at
 * boot, so a schema mistake fails `ready()`/`listen()`. `lazy`: each route's on its first
 * request, so `listen()` waits only for routing and scope resolution; a cold start of 1,000
 * routes skips generating about 6.5 MB of ajv code. Use `ready({ compileAll: true })` in tests
 * to get the boot errors back.
 */
export type SchemaCompilation = 'eager' | 'lazy'

const modes: readonly SchemaCompilation[] = ['eager', 'lazy']

/** Refuses anything but the two modes, naming where the value came from. */
export function checkSchemaCompilation(value: unknown, where: string): SchemaCompilation {
  if ((modes as readonly unknown[]).includes(value)) return value as SchemaCompilation
  const shown = typeof value === 'string' ? `'${value}'` : String(value)
  throw runtimeError('ENC_ERR_SERVER_INVALID_OPTION', { where, given: shown })
}
