// README differences the `reply-payloads` family meets (reply-payloads.ts).
import type { KnownDifference } from './difference-types'
import { isView, payloadRoute } from './reply-payloads'

export const REPLY_PAYLOADS_DIFFERENCES: KnownDifference[] = [
  {
    id: 'typed-array-sent-as-bytes',
    readme: 'a typed array or an `ArrayBuffer` sent as the reply\n  is sent as Fastify 5 sends it',
    async rewrite(_f, { c, replay }) {
      const shape = c.payloads
      if (shape === undefined || !isView(shape) || shape.asBytes === true) return undefined
      // Fastify 3 asked with the view's bytes in a Buffer: what Enclave (and Fastify 5) send for it.
      return await replay(c.request, payloadRoute({ ...shape, asBytes: true }))
    },
  },
]
