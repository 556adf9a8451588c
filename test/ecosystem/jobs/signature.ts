import { createHmac, timingSafeEqual } from 'node:crypto'

/** Stripe-style header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signatureHeader(secret: string, timestamp: number, body: string | Buffer): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`
}

function hmac(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')
}

export type Verdict = { ok: true } | { ok: false; reason: string }

/** Checks a header against the raw body, refusing timestamps outside `toleranceSeconds` (replays). */
export function verifySignature(secret: string, header: string | undefined, body: Buffer | undefined, nowSeconds: number, toleranceSeconds = 300): Verdict {
  if (header === undefined || body === undefined) return { ok: false, reason: 'missing signature or body' }
  const parts = new Map(header.split(',').map((kv) => kv.split('=', 2) as [string, string]))
  const t = Number(parts.get('t'))
  const v1 = parts.get('v1')
  if (!Number.isInteger(t) || v1 === undefined) return { ok: false, reason: 'malformed signature header' }
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return { ok: false, reason: 'timestamp outside the tolerance' }
  const expected = Buffer.from(hmac(secret, t, body))
  const given = Buffer.from(v1)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature mismatch' }
  return { ok: true }
}
