import fastifyPlugin, { type PluginMetadata } from 'fastify-plugin'

/**
 * fastify-plugin for a plugin written against Enclave's `Scope`. Its own types take only a plugin
 * whose first parameter is a FastifyInstance; at run time it only marks the function (skip-override,
 * plugin-meta) and returns it, so the plugin's type passes through unchanged.
 */
export const fp: <F extends Function>(plugin: F, meta?: PluginMetadata | string) => F = fastifyPlugin as never
