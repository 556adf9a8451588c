import { IncomingMessage as NodeIncomingMessage } from 'node:http'

/**
 * The request class Enclave's node:http server makes (its `IncomingMessage` option): Node's, with a
 * cheaper `headers` getter. node:http 20 builds `req.headers` on every HTTP/1.1 request before the
 * 'request' event (parserOnIncoming reads `req.headers.expect`), through matchKnownFields, which for
 * a name it does not know makes three strings (a lower-cased copy, a flag prefix, the slice without
 * it): ~4.3-6.5 us for the bench `headers` request's 31 lines. Here a name already in lower case is
 * kept as it is: ~1.5-1.9 us less (bench/README.md, session 20).
 *
 * Node's rules differ by name only when a name comes twice (joined with ', ' or '; ', the first kept,
 * or pushed to an array); a first occurrence is always `dest[name] = value`, Set-Cookie `[value]`.
 * So only a list without a repeated name is built here: a repeat, or a name an object already
 * answers to (`constructor`, `__proto__`), hands the whole list to Node's own getter. Used only where
 * this Node keeps the object under the symbols looked up below and a probe gives exactly what Node's
 * getter gives; otherwise the class is Node's own.
 */

interface HeaderSymbols { readonly headers: symbol; readonly count: symbol }
type Slots = Record<symbol, unknown>

const nodeHeaders = Object.getOwnPropertyDescriptor(NodeIncomingMessage.prototype, 'headers')

function findSymbols(): HeaderSymbols | null {
  if (nodeHeaders?.get === undefined || nodeHeaders.set === undefined) return null
  try {
    const symbols = Object.getOwnPropertySymbols(new NodeIncomingMessage(null as never))
    const headers = symbols.find((s) => s.description === 'kHeaders')
    const count = symbols.find((s) => s.description === 'kHeadersCount')
    if (headers === undefined || count === undefined) return null
    const found = { headers, count }
    return probeAgrees(found) ? found : null
  } catch {
    return null
  }
}

/** Whether a list built here equals Node's for the same raw list, on this Node. */
function probeAgrees(symbols: HeaderSymbols): boolean {
  const list = ['Host', 'a.test', 'user-agent', 'probe', 'X-Mixed-Case', '1', 'set-cookie', 'a=1', 'Accept', '*/*']
  const message = new NodeIncomingMessage(null as never)
  message.rawHeaders = list
  ;(message as unknown as Slots)[symbols.count] = list.length
  // A fresh message holds null there until its headers are read (the getter below relies on it).
  if ((message as unknown as Slots)[symbols.headers] !== null) return false
  const built = buildHeaders(list, list.length)
  const expected = message.headers
  return built !== null && JSON.stringify(built) === JSON.stringify(expected) && Object.getPrototypeOf(built) === Object.getPrototypeOf(expected)
}

/**
 * `name` lower-cased; the string itself when it has no upper-case letter (no copy). The names
 * nearly every API request carries, in either spelling, give the program's own constant, as
 * Node's matchKnownFields does: a fresh string from the parser as a property key costs V8 a
 * string-table lookup on every store and read (~40 ns), a constant none; and `Host`,
 * `Content-Type`, `Content-Length` (what wrk, curl and most clients send) need no lower-cased
 * copy. In process, per request: wrk's POST head 274 -> 132 ns (Node's getter 138), curl's 393
 * -> 180, a GET's `Host` 68 -> 37; the bench `headers` list (31 lower-case names, 5 of these
 * lengths) within its rounds' spread (bench/README.md, session 21). Kept to five names: each
 * comparison is paid by every other name of that length.
 */
function lowerCased(name: string): string {
  switch (name.length) {
    case 4: if (name === 'Host' || name === 'host') return 'host'; break
    case 6: if (name === 'Accept' || name === 'accept') return 'accept'; break
    case 10: if (name === 'User-Agent' || name === 'user-agent') return 'user-agent'; break
    case 12: if (name === 'Content-Type' || name === 'content-type') return 'content-type'; break
    case 14: if (name === 'Content-Length' || name === 'content-length') return 'content-length'; break
  }
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i)
    if ((c >= 65 && c <= 90) || c > 127) return name.toLowerCase()
  }
  return name
}

/** The header object of `rawHeaders` (`count` entries), or null when a name comes twice (Node's rules then). */
function buildHeaders(rawHeaders: readonly string[], count: number): Record<string, unknown> | null {
  const dest: Record<string, unknown> = {}
  for (let i = 0; i < count; i += 2) {
    const name = lowerCased(rawHeaders[i])
    if (dest[name] !== undefined) return null
    dest[name] = name === 'set-cookie' ? [rawHeaders[i + 1]] : rawHeaders[i + 1]
  }
  return dest
}

let requestClass: typeof NodeIncomingMessage | undefined

/**
 * Node's IncomingMessage, or (where the probe agreed) its subclass with the getter above, named as
 * Node's. Made on the first server, not at load: the probe costs ~0.3-0.5 ms CPU, which an app that
 * only injects (serverless, tests) need not pay.
 */
export function enclaveIncomingMessage(): typeof NodeIncomingMessage {
  if (requestClass === undefined) {
    const symbols = findSymbols()
    requestClass = symbols === null ? NodeIncomingMessage : withHeadersGetter(symbols)
  }
  return requestClass
}

/** Whether the server's requests build their headers here (a test reads it: the fast path must be the one tested). */
export function headersBuiltHere(): boolean {
  return enclaveIncomingMessage() !== NodeIncomingMessage
}

function withHeadersGetter({ headers, count }: HeaderSymbols): typeof NodeIncomingMessage {
  const get = nodeHeaders!.get as (this: NodeIncomingMessage) => NodeIncomingMessage['headers']
  const set = nodeHeaders!.set as (this: NodeIncomingMessage, value: unknown) => void
  const IncomingMessage = class IncomingMessage extends NodeIncomingMessage {}
  Object.defineProperty(IncomingMessage.prototype, 'headers', {
    configurable: true,
    enumerable: nodeHeaders!.enumerable === true,
    get(this: NodeIncomingMessage) {
      const slots = this as unknown as Slots
      const n = slots[count]
      if (slots[headers] === null && typeof n === 'number' && Array.isArray(this.rawHeaders)) {
        const built = buildHeaders(this.rawHeaders, n)
        if (built !== null) {
          slots[headers] = built
          return built
        }
      }
      return get.call(this)
    },
    set(this: NodeIncomingMessage, value: unknown) { set.call(this, value) },
  })
  return IncomingMessage
}
