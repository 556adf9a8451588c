// README differences the `shared-schemas` family meets (shared-schemas.ts). Each asks Fastify 3
// again with the declaration written as Enclave reads it.
import type { KnownDifference } from './difference-types'
import { sharedRoute } from './shared-schemas'

export const SHARED_SCHEMAS_DIFFERENCES: KnownDifference[] = [
  {
    id: 'nested-id-in-response-schema',
    readme: 'A `$ref` to an `$id` declared inside a shared schema (`$ref: \'inner#\'` where `addSchema({ $id:\n  \'outer\', properties: { inner: { $id: \'inner\', ... } } })`) resolves in response schemas too',
    async rewrite(f, { c, replay }) {
      const shape = c.shared
      if (shape === undefined || shape.ref !== 'r-inner#' || !shape.part.startsWith('response') || f.bootError === undefined || !/Cannot find reference "r-inner"/.test(f.bootError)) return undefined
      // The same schema by its parent's path, which Fastify 3's serializer finds.
      const asPath = { ...shape, ref: 'r-wrap#/properties/inner' as const }
      return await replay(c.request, sharedRoute(asPath))
    },
  },
]
