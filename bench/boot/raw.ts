/**
 * Boot worker: the floor of eager compilation. The same 1,000 routes' schemas, each distinct one
 * compiled once with ajv 6 (fastify 3's options) and fast-json-stringify, and nothing else: no
 * router, no framework, no error checks. What this costs, every framework that compiles at boot
 * pays too; the boot table shows how far each contender is above it.
 */
import Ajv from 'ajv'
import fastJson from 'fast-json-stringify'
import { measureBoot } from './report'

type Schema = Parameters<typeof fastJson>[0]

measureBoot(async ({ routes, shared }) => {
  const ajv = new Ajv({ removeAdditional: true, useDefaults: true, coerceTypes: true, nullable: true, jsonPointers: true })
  const external: Record<string, Schema> = {}
  for (const schema of shared) {
    ajv.addSchema(schema)
    external[schema.$id as string] = schema as unknown as Schema
  }
  // Every validator first, then every serializer: ajv 6 and fast-json-stringify (ajv 8 inside)
  // taking turns route by route cost ~10% more (session 13, boot13), and the floor is the cheapest
  // order known, so Enclave's eager boot (which batches the same way) is held to that.
  const validators = new Map<string, unknown>()
  for (const r of routes) {
    const body = JSON.stringify(r.body)
    if (!validators.has(body)) validators.set(body, ajv.compile(r.body))
  }
  const serializers = new Map<string, unknown>()
  for (const r of routes) {
    const response = JSON.stringify(r.response)
    if (!serializers.has(response)) serializers.set(response, fastJson(r.response as unknown as Schema, { schema: external }))
  }
  // The floor does not serve: no server, no first request.
  return null
})
