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

/**
 * What to write instead, where Enclave offers another way. Fastify 3's default route is refused,
 * not offered: Fastify 5 (the plugin API Enclave offers) removed it, and its raw `(req, res)`
 * fallback would answer outside the hooks, the error handler and the 405 rule.
 */
const replacements: Readonly<Record<string, string>> = {
  setDefaultRoute: 'Fastify 3\'s raw (req, res) default route was removed in Fastify 5: answer unknown URLs with setNotFoundHandler((request, reply) => { ... }) in the scope; the same raw function runs as setNotFoundHandler((request, reply) => { reply.hijack(); fallback(request.raw, reply.raw) }).',
  getDefaultRoute: 'Fastify 3\'s raw (req, res) default route was removed in Fastify 5, so there is none to read: answer unknown URLs with setNotFoundHandler((request, reply) => { ... }).',
}

/** Installs the refusing methods on a prototype that has no member of that name yet. */
export function installUnsupportedApis(prototype: object): void {
  for (const api of unsupportedFastifyApis) {
    if (api in prototype) continue
    Object.defineProperty(prototype, api, {
      configurable: true,
      writable: true,
      value: function unsupported(this: { path: string }): never {
        throw runtimeError('ENC_ERR_PLUGIN_UNSUPPORTED_API', { api, path: this.path, instead: replacements[api] })
      },
    })
  }
}
