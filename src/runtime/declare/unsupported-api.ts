import { runtimeError } from '../errors/runtime-codes'

/**
 * Fastify instance methods Enclave does not offer (yet). Calling one fails at once with a coded
 * error naming it, rather than `x is not a function` from inside a plugin: a plugin that needs
 * one is refused with the reason. docs/plugins.md lists them.
 */
export const unsupportedFastifyApis: readonly string[] = [
  'setGenReqId', 'setChildLoggerFactory',
  'addHttpMethod', 'addConstraintStrategy', 'hasConstraintStrategy',
  // Fastify 3's raw (req, res) fallback beside the not-found handler (deprecated in 4, gone in 5).
  'setDefaultRoute', 'getDefaultRoute',
]

/** Installs the refusing methods on a prototype that has no member of that name yet. */
export function installUnsupportedApis(prototype: object): void {
  for (const api of unsupportedFastifyApis) {
    if (api in prototype) continue
    Object.defineProperty(prototype, api, {
      configurable: true,
      writable: true,
      value: function unsupported(this: { path: string }): never {
        throw runtimeError('ENC_ERR_PLUGIN_UNSUPPORTED_API', { api, path: this.path })
      },
    })
  }
}
