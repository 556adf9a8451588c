/**
 * Differences from Fastify 3.27.4 the schema-aware fuzz meets on purpose: each entry names the
 * README passage that lists it (a test checks the passage is there), and says when it applies.
 * `SHARED_BREACHES` are what both frameworks do to a handler's values: listed in docs/schemas-and-types.md.
 */
import type { SchemaFuzzRequest } from './schema-fuzz-draw'

export interface Answerish { status: number; body: string }

export interface KnownDifference {
  id: string
  /** Text the README holds for this difference (whitespace as one space). */
  readme: string
  applies(request: SchemaFuzzRequest, fastify3: Answerish, enclave: Answerish): boolean
}

const mediaType = (request: SchemaFuzzRequest): string => (request.headers['content-type'] ?? '').split(';')[0].trim()
const pathSegments = (request: SchemaFuzzRequest): string[] => request.url.split('?')[0].split('/')

export const KNOWN: KnownDifference[] = [
  {
    id: 'media type matched exactly and case-insensitively',
    readme: 'Fastify 3 matches a declared type as a substring of the header, and case-sensitively',
    applies: (request, f, e) => (f.status === 415 || e.status === 415) && mediaType(request) !== 'application/json' && mediaType(request).toLowerCase().startsWith('application/json'),
  },
  {
    id: 'route parameter over maxParamLength is 414',
    readme: "A route parameter longer than `maxParamLength` answers 414 (`ENC_ERR_PARAM_TOO_LONG`); Fastify 3's router treats the URL as unknown and answers 404",
    // Fastify 3 may answer another fault of the same request first (its body read, then its 404).
    applies: (request, f, e) => f.status >= 400 && f.status < 500 && e.status === 414 && pathSegments(request).some((s) => decodeURIComponentOr(s).length > 100),
  },
  {
    id: 'no coercion to Infinity',
    readme: 'strings that would coerce to `Infinity` (`"Infinity"` or `"1e999"` in a body at any depth, or in the query, params or headers) are not coerced',
    // Refused here where Fastify 3 passes Infinity on (written `null`), or kept as the string under a type that also takes strings.
    applies: (request, f, e) => /Infinity|1e[34]\d\d/i.test(request.url + JSON.stringify(request.headers) + (request.payload?.toString('latin1') ?? '')) &&
      ((f.status === 200 && e.status === 400 && /should be (number|integer)/.test(e.body)) || (f.status === 200 && e.status === 200 && /null/.test(f.body))),
  },
  {
    id: "an escaped constructor key holding null is JSON, not Fastify 3's TypeError",
    readme: 'Fastify 3 answers 400 `Cannot convert undefined or null to object`',
    applies: (_request, f) => f.status === 400 && f.body.includes('Cannot convert undefined or null to object'),
  },
  {
    id: 'two faults in one request: the first check made answers',
    readme: 'A request with more than one fault is answered by the first check Enclave makes',
    applies: (request, f, e) => request.mutations.length >= 2 && f.status >= 400 && f.status < 500 && (e.status === 415 || e.status === 414) && f.status !== e.status,
  },
]

/** What ajv 6 does on both frameworks: a breach Fastify 3 shows on the same request is this, not Enclave's. */
export const SHARED_BREACHES: KnownDifference[] = [
  {
    id: 'ajv 6 keeps a value coerced in a failed oneOf/anyOf branch',
    readme: 'ajv 6 coerces a value inside each `oneOf`/`anyOf` branch it tries and keeps the coercion',
    // Seen on Fastify 3 too, or Fastify 3 refused that request for a listed difference (a media type it matches differently).
    applies: (request, f, e) => /does not satisfy its schema/.test(e.body) && /(oneOf|anyOf)/.test(e.body) && (f.body === e.body || explain(request, f, e) !== undefined),
  },
]

function decodeURIComponentOr(s: string): string {
  try { return decodeURIComponent(s) } catch { return s }
}

/** The id of the first entry that explains the difference, or undefined. */
export function explain(request: SchemaFuzzRequest, fastify3: Answerish, enclave: Answerish): string | undefined {
  return KNOWN.find((k) => k.applies(request, fastify3, enclave))?.id
}

/** The id of the shared behaviour that explains a breach seen on both frameworks, or undefined. */
export function sharedBreach(request: SchemaFuzzRequest, fastify3: Answerish, enclave: Answerish): string | undefined {
  return SHARED_BREACHES.find((k) => k.applies(request, fastify3, enclave))?.id
}
