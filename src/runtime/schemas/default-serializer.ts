import fastJson from 'fast-json-stringify'
import type { Schema } from 'fast-json-stringify'
import { cacheBySchema } from './compile-cache'
import type { SerializeFunction, SerializerCompiler, SharedSchema } from './types'

/**
 * The default serializer compiler for one set of visible shared schemas: fast-json-stringify 7, given
 * the shared schemas keyed by `$id` through its `schema` option (it resolves `id#`, `id#/definitions/x`,
 * `id#name`, `id#/properties/x`, `#name` and `#/definitions/x` against them). Properties that are not
 * in the response schema are left out of the output (spec §1.6). Each distinct schema is compiled once.
 */
export function buildDefaultSerializer(externalSchemas: Record<string, SharedSchema>): SerializerCompiler {
  return cacheBySchema(({ schema }) =>
    fastJson(schema as unknown as Schema, { schema: externalSchemas as unknown as Record<string, Schema> }) as SerializeFunction)
}
