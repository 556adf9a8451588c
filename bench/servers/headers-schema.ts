/**
 * The `headers` endpoint: GET /headers with 30 request headers (besides Host), the mix a browser
 * behind a proxy sends, and a headers schema over eight of them: strings with length limits and
 * patterns, two integers coerced from their text. The answer echoes the validated values.
 */
export const requestHeaders: Readonly<Record<string, string>> = Object.freeze({
  accept: 'application/json, text/plain, */*',
  'accept-encoding': 'gzip, deflate, br',
  'accept-language': 'en-GB,en;q=0.9,de;q=0.8,fr;q=0.7',
  'cache-control': 'no-cache',
  pragma: 'no-cache',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  cookie: 'session=9f8e7d6c5b4a39281706f5e4d3c2b1a0; theme=dark; consent=analytics%2Cads; last_seen=1763890000',
  referer: 'https://app.example.com/dashboard/orders?page=3&sort=-created',
  origin: 'https://app.example.com',
  dnt: '1',
  'sec-ch-ua': '"Chromium";v="130", "Google Chrome";v="130", "Not?A_Brand";v="99"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Linux"',
  'sec-fetch-dest': 'empty',
  'sec-fetch-mode': 'cors',
  'sec-fetch-site': 'same-origin',
  'x-request-id': '7f3c2a9e-41d2-4b8a-9c1e-5d6f7a8b9c0d',
  'x-correlation-id': 'c0ffee00-1234-4567-89ab-cdef01234567',
  'x-tenant-id': 'acme-corp',
  'x-api-version': '2',
  'x-page-size': '25',
  'x-locale': 'en-GB',
  'x-client-version': '5.12.3',
  'x-feature-flags': 'new-checkout,dark-mode,beta-search',
  'x-forwarded-for': '203.0.113.7, 198.51.100.2',
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'app.example.com',
  'x-real-ip': '203.0.113.7',
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  tracestate: 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE',
})

export const headersSchema = {
  headers: {
    type: 'object',
    properties: {
      accept: { type: 'string', maxLength: 200 },
      'user-agent': { type: 'string', maxLength: 512 },
      'x-request-id': { type: 'string', minLength: 8, maxLength: 64 },
      'x-tenant-id': { type: 'string', pattern: '^[a-z0-9-]{1,40}$' },
      'x-api-version': { type: 'integer', minimum: 1, maximum: 3 },
      'x-page-size': { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      'x-locale': { type: 'string', maxLength: 10 },
      traceparent: { type: 'string', pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' },
    },
    required: ['x-request-id', 'x-tenant-id', 'x-api-version'],
  },
  response: {
    200: {
      type: 'object',
      properties: {
        tenant: { type: 'string' },
        requestId: { type: 'string' },
        apiVersion: { type: 'integer' },
        pageSize: { type: 'integer' },
        locale: { type: 'string' },
      },
      required: ['tenant', 'requestId', 'apiVersion', 'pageSize'],
    },
  },
}

export interface HeadersAnswer { tenant: string; requestId: string; apiVersion: number; pageSize: number; locale: string }

/** What every /headers handler answers, read from the validated (coerced) headers. */
export function headersAnswer(headers: Record<string, unknown>): HeadersAnswer {
  return {
    tenant: headers['x-tenant-id'] as string,
    requestId: headers['x-request-id'] as string,
    apiVersion: headers['x-api-version'] as number,
    pageSize: headers['x-page-size'] as number,
    locale: headers['x-locale'] as string,
  }
}

/** The answer a contender that validated and coerced the headers gives. */
export const expectedHeadersAnswer: HeadersAnswer = { tenant: 'acme-corp', requestId: requestHeaders['x-request-id'], apiVersion: 2, pageSize: 25, locale: 'en-GB' }
