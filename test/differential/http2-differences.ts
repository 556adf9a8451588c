// README differences met only over h2c (runSeed's `http2Every`, apps.ts's overHttp2): each rewrites
// Fastify 3's answer over HTTP/2 into what it answers over HTTP/1, for the other rules to read.
import { answer } from './apps'
import type { KnownDifference } from './difference-types'
import { withRawStatuses } from './raw-statuses'

// host[:port] as RFC 3986 §3.2.2 has it: an IP literal or a reg-name, digits for the port.
const HOST_PORT = /^(?:\[[0-9A-Za-z:._~!$&'()*+,;=%-]+\]|[0-9A-Za-z._~!$&'()*+,;=%-]*)(?::[0-9]*)?$/

export const HTTP2_DIFFERENCES: KnownDifference[] = [
  {
    id: 'h2-authority-bad-host',
    readme: 'Over HTTP/2 `:authority` is held to the same rules (userinfo, a port that is not digits), and a\n  Host beside it that names another host is the same 400',
    rewrite(_f, { c, enclave, transport }) {
      const code = (enclave.body as { code?: unknown } | null)?.code
      // A HEAD's 400 has no body to name its code.
      const headOf400 = c.request.method === 'HEAD' && enclave.body === ''
      if (transport !== 'http2' || enclave.statusCode !== 400 || (code !== 'ENC_ERR_REQUEST_BAD_HOST' && !headOf400)) return undefined
      // Fastify 3 serves (or nghttp2 resets, a header list too large) what Enclave refuses before routing.
      const authority = c.request.h2?.authority
      const host = Object.entries(c.request.headers ?? {}).find(([name]) => name.toLowerCase() === 'host')?.[1]
      const bad = (authority !== undefined && !HOST_PORT.test(authority)) || (host !== undefined && !HOST_PORT.test(host)) ||
        (authority !== undefined && host !== undefined && host.toLowerCase() !== authority.toLowerCase())
      return bad ? enclave : undefined
    },
  },
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
    async rewrite(f, { c, transport }) {
      if (transport !== 'http2' || (f.statusCode !== -1 && f.statusCode !== -2)) return undefined
      // Node's HTTP/2 refuses a status of 600 or more (ERR_HTTP2_STATUS_INVALID) where Fastify 3
      // assigns it to the raw response (reply.code(600), an error's `statusCode: 600`): its reply
      // then never completes, or its process throws, also where an error handler would have
      // answered with its own status (errors 5:78). Its answer over inject, where that assignment
      // was made, for the other rules (the 600 one) to read.
      const { result: written, statuses } = await withRawStatuses(() => answer('fastify3', c, 'inject'))
      return statuses.some((status) => status >= 600) ? written : undefined
    },
  },
]
