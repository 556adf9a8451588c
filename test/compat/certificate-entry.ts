// `require('../build-certificate')` in Fastify's https and http2 test files resolves here
// (require-hook.ts). Fastify's helper makes a self-signed certificate with pem (a devDependency
// of Fastify's, not ours) and leaves it in `global.context`; this one leaves our committed test
// certificate (test/support/tls.ts) there instead.
import { tlsCert, tlsKey } from '../support/tls'

async function buildCertificate(): Promise<void> {
  const holder = globalThis as { context?: { cert?: unknown; key?: unknown } }
  holder.context = { ...holder.context, cert: tlsCert.toString(), key: tlsKey.toString() }
}

export = { buildCertificate }
