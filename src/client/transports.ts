import { contractError } from '../contract/contract-codes'

/** One request as a transport sends it: the url is absolute for fetch, a path for inject. */
export interface OutgoingRequest {
  readonly route: string
  readonly method: string
  readonly url: string
  readonly headers: Record<string, string>
  readonly body: string | Uint8Array | undefined
  readonly signal: AbortSignal | undefined
}
export interface IncomingAnswer { readonly status: number; readonly headers: Headers; readonly text: string }
export type Transport = (request: OutgoingRequest) => Promise<IncomingAnswer>

/** What `createClient(api, { app })` calls: an Enclave app (or a Fastify one): `inject()` answers without a socket. */
export interface InjectTarget {
  inject(options: { method: string; url: string; headers: Record<string, string>; payload?: string | Uint8Array }): Promise<{
    statusCode: number
    headers: Record<string, string | string[] | number | undefined>
    body: string
  }>
}

function networkError(request: OutgoingRequest, error: unknown): Error {
  const reason = error instanceof Error ? (error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message) : String(error)
  return contractError('ENC_ERR_CLIENT_NETWORK', { route: request.route, method: request.method, url: request.url, reason }, { cause: error })
}

// An abort is the caller's doing: its reason is thrown as it is, so `error.name === 'AbortError'` holds.
function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError')
}

export function fetchTransport(fetchFn: typeof fetch): Transport {
  return async (request) => {
    let response: Response
    let text: string
    try {
      response = await fetchFn(request.url, { method: request.method, headers: request.headers, body: request.body, signal: request.signal })
      text = await response.text()
    } catch (error) {
      if (request.signal?.aborted === true) throw abortReason(request.signal)
      throw networkError(request, error)
    }
    return { status: response.status, headers: response.headers, text }
  }
}

export function injectTransport(app: InjectTarget): Transport {
  return async (request) => {
    const { signal } = request
    if (signal?.aborted === true) throw abortReason(signal)
    const injected = app.inject({ method: request.method, url: request.url, headers: request.headers, ...(request.body === undefined ? {} : { payload: injectPayload(request.body) }) })
      .catch((error: unknown) => { throw networkError(request, error) })
    // inject() cannot be stopped; the call gives up waiting for it.
    const answer = signal === undefined ? await injected : await new Promise<Awaited<typeof injected>>((resolve, reject) => {
      const onAbort = () => reject(abortReason(signal))
      signal.addEventListener('abort', onAbort, { once: true })
      injected.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
    })
    const headers = new Headers()
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue
      if (Array.isArray(value)) for (const item of value) headers.append(name, item)
      else headers.set(name, String(value))
    }
    return { status: answer.statusCode, headers, text: answer.body }
  }
}

// inject() (light-my-request) sends a string or a Buffer as it is and JSON-encodes any other object,
// a plain Uint8Array included: bytes go as a Buffer. inject only runs in Node, so Buffer is there;
// it is read off globalThis so that this bundle names no Node type or module.
function injectPayload(body: string | Uint8Array): string | Uint8Array {
  if (typeof body === 'string') return body
  const buffer = (globalThis as { Buffer?: { from(bytes: Uint8Array): Uint8Array } }).Buffer
  return buffer === undefined ? body : buffer.from(body)
}
