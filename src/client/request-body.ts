/*
 * A call's body as the transports send it. JSON by default; a route whose contract schema
 * `consumes` no JSON media type (`['multipart/form-data']`) takes what fetch sends as it is —
 * FormData, Blob, URLSearchParams, bytes, text — encoded here once, by the platform's Response, so
 * that fetch and inject send the same bytes and the same Content-Type (a form's boundary included).
 * Streams are not taken: fetch needs `duplex: 'half'` for them and inject has no stream payload.
 */

/** What a call to a route that consumes no JSON sends as its body. */
export type RawBody = FormData | Blob | URLSearchParams | ArrayBuffer | Uint8Array | string

export interface EncodedBody { readonly bytes: string | Uint8Array; readonly contentType: string | null }

/** True when the route's `consumes` names media types and none of them is JSON. */
export function consumesRaw(schema: unknown): boolean {
  const consumes = typeof schema === 'object' && schema !== null ? (schema as { consumes?: unknown }).consumes : undefined
  return Array.isArray(consumes) && consumes.length > 0 && !consumes.some((type) => typeof type === 'string' && /json/i.test(type))
}

function isRaw(body: unknown): body is Exclude<RawBody, string> {
  return (typeof FormData !== 'undefined' && body instanceof FormData) || (typeof Blob !== 'undefined' && body instanceof Blob) ||
    body instanceof URLSearchParams || body instanceof ArrayBuffer || body instanceof Uint8Array
}

/** The body to send: JSON text, or a raw body's bytes and the Content-Type the platform gives it. */
export async function encodeBody(body: unknown, raw: boolean): Promise<EncodedBody | undefined> {
  if (body === undefined) return undefined
  if (!isRaw(body) && !(raw && typeof body === 'string')) return { bytes: JSON.stringify(body), contentType: 'application/json' }
  const response = new Response(body as ConstructorParameters<typeof Response>[0])
  return { bytes: new Uint8Array(await response.arrayBuffer()), contentType: response.headers.get('content-type') }
}
