// README differences met only over h2c (runSeed's `http2Every`, apps.ts's overHttp2): each rewrites
// Fastify 3's answer over HTTP/2 into what it answers over HTTP/1, for the other rules to read.
import { answer } from './apps'
import type { KnownDifference } from './difference-types'

export const HTTP2_DIFFERENCES: KnownDifference[] = [
  {
    id: 'h2-no-content-length-reset',
    readme: 'over HTTP/2 that length makes nghttp2 reset the stream',
    async rewrite(f, { c, enclave, transport }) {
      if (transport !== 'http2' || f.statusCode !== -3 || !/NGHTTP2_PROTOCOL_ERROR/.test(String(f.body)) || (enclave.statusCode !== 204 && enclave.statusCode !== 304)) return undefined
      // Fastify 3's head as it writes it (inject: no stream to reset), for the 204/304 rule to read.
      const written = await answer('fastify3', c, 'inject')
      return written.statusCode === enclave.statusCode ? { ...written, body: '' } : undefined
    },
  },
  {
    id: 'h2-status-out-of-range',
    readme: 'over HTTP/2, where Node refuses 600 and above, its reply then never\n  completes or its process throws',
    async rewrite(f, { c, enclave, transport }) {
      if (transport !== 'http2' || (f.statusCode !== -1 && f.statusCode !== -2) || enclave.statusCode !== 500) return undefined
      // Node's HTTP/2 refuses a status of 600 or more (ERR_HTTP2_STATUS_INVALID): Fastify 3's reply
      // then never completes, or its process throws. Its head as written over inject, for the 600 rule.
      const written = await answer('fastify3', c, 'inject')
      return written.statusCode >= 600 ? written : undefined
    },
  },
]
