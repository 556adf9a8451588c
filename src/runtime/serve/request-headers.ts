import { IncomingMessage } from 'node:http'

/**
 * `raw.headers` for `request.headers`, built here when Node has not built it yet. Node's getter
 * (node:_http_incoming) passes each name through matchKnownFields, which for a name it does not
 * know lower-cases it, prefixes a flag character and slices it off again: three strings per
 * header, ~4.3 µs for the bench `headers` request's 31 headers against ~2.8 µs here, where a name
 * already in lower case (HTTP/2 clients, most proxies, wrk) is kept as it is.
 *
 * Node's rules differ by name only when a name comes twice (joined with ', ' or '; ', the first
 * kept, or pushed to an array); a first occurrence is always `dest[name] = value`, Set-Cookie
 * `[value]`. So only a list without a repeated name is built here: a repeat, or a name that an
 * object already answers to (`constructor`, `__proto__`), hands the whole list to Node's getter.
 * The object is handed to Node (its `headers` setter), so `request.raw.headers` is the very same
 * object, as in Fastify 3, and coercion by a headers schema shows through both.
 *
 * Used only where this Node's message keeps its headers under the symbols looked up below and a
 * probe at load gives what Node's own getter gives; anything else (HTTP/2's request, inject()'s,
 * another Node) reads `raw.headers`.
 */

interface HeaderSymbols { readonly headers: symbol; readonly count: symbol }

function findSymbols(): HeaderSymbols | null {
  try {
    const probe = new IncomingMessage(null as never)
    const symbols = Object.getOwnPropertySymbols(probe)
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
  const nodes = new IncomingMessage(null as never) as unknown as Record<symbol, unknown> & { rawHeaders: string[] }
  nodes.rawHeaders = list
  nodes[symbols.count] = list.length
  // A fresh message holds null there until its headers are read (headersOf relies on it).
  if (nodes[symbols.headers] !== null) return false
  const built = buildHeaders(list, list.length)
  const expected = (nodes as unknown as IncomingMessage).headers
  return built !== null && JSON.stringify(built) === JSON.stringify(expected) && Object.getPrototypeOf(built) === Object.getPrototypeOf(expected)
}

/** `name` lower-cased; the string itself when it has no upper-case letter (no copy). */
function lowerCased(name: string): string {
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

const symbols = findSymbols()

/** `raw.headers`, built here when it can be (see above); Node's getter otherwise. */
export function headersOf(raw: IncomingMessage): Record<string, unknown> {
  if (symbols !== null) {
    const slots = raw as unknown as Record<symbol, unknown>
    const count = slots[symbols.count]
    // null: a message from Node's parser whose headers nobody has read yet.
    if (slots[symbols.headers] === null && typeof count === 'number' && Array.isArray(raw.rawHeaders)) {
      const built = buildHeaders(raw.rawHeaders, count)
      if (built !== null) {
        raw.headers = built as IncomingMessage['headers']
        return built
      }
    }
  }
  return raw.headers as Record<string, unknown>
}

/** Whether headersOf builds lists itself on this Node (a test reads it: the fast path must be the one tested). */
export const headersBuiltHere: boolean = symbols !== null
