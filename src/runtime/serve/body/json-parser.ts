import secureJson from 'secure-json-parse'
import { runtimeError } from '../../errors/runtime-codes'
import type { BodyParser } from '../../shared/body-parser'
import { refusePoisoning, type JsonPoisonActions } from '../../shared/json-poisoning'
import { holdsNonFinite } from '../../schemas/finite-guard'
import { scanJson, JSON_TOO_DEEP, JSON_MAY_OVERFLOW, JSON_NEEDS_POISON_CHECK, WASM_SCAN_MIN_BYTES } from './json-scan'
import { scanJsonChunksWasm, decodeScanned, WASM_SCAN_MAX_BYTES } from './json-scan-wasm'

/**
 * The default JSON parser: refuses `__proto__` and `constructor.prototype` keys (also when
 * written with escapes: they are checked after decoding; `actions` may remove or keep them
 * instead), bodies nested deeper than `maxDepth`, so no depth can reach a stack overflow in
 * validation or serialization, and numbers out of the range of a double.
 */
export function jsonParser(maxDepth: number, actions: JsonPoisonActions = refusePoisoning): BodyParser {
  // Both 'ignore': secure-json-parse would only return JSON.parse's result, after its checks.
  const guarded = actions.protoAction !== 'ignore' || actions.constructorAction !== 'ignore'
  /** The value of `decoded` once scanned (`flags`, not too deep). */
  const parseScanned = (decoded: string, flags: number): unknown => {
    // A leading byte-order mark is dropped whatever the poisoning actions: secure-json-parse drops
    // it (Fastify 3), and JSON.parse, used when both actions are 'ignore', would refuse it.
    const text = decoded.charCodeAt(0) === 0xFEFF ? decoded.slice(1) : decoded
    // Only one: secure-json-parse would drop a second mark too, which Fastify 3 refuses like any stray byte.
    if (text.charCodeAt(0) === 0xFEFF) throw runtimeError('ENC_ERR_CTP_INVALID_JSON', { reason: 'Unexpected token U+FEFF (a second byte-order mark) at position 0' })
    let parsed: unknown
    try {
      // secure-json-parse only where a key could spell __proto__ or constructor: its two regular
      // expressions over the text cost about twice the scan (bench `bulk`, 64 KB: ~35 vs ~15 µs).
      parsed = guarded && (flags & JSON_NEEDS_POISON_CHECK) !== 0 ? secureJson.parse(text, undefined, actions) : JSON.parse(text)
    } catch (error) {
      const message = error instanceof Error ? error.message : ''
      if (message.startsWith('Object contains forbidden prototype property')) {
        throw runtimeError('ENC_ERR_CTP_FORBIDDEN_PROTO')
      }
      throw runtimeError('ENC_ERR_CTP_INVALID_JSON', { reason: message })
    }
    // `1e309` parses to ±Infinity, which JSON cannot express: walked only when scanJson flagged a literal.
    if ((flags & JSON_MAY_OVERFLOW) !== 0 && holdsNonFinite(parsed)) {
      throw runtimeError('ENC_ERR_CTP_INVALID_JSON', { reason: 'a number is out of range (larger than a double can hold)' })
    }
    return parsed
  }
  const checkScanned = (flags: number): void => {
    if ((flags & JSON_TOO_DEEP) !== 0) {
      throw runtimeError('ENC_ERR_CTP_JSON_TOO_DEEP', { max: maxDepth })
    }
  }
  const fn = (_request: unknown, body: string | Buffer): unknown => {
    // The scan reads bytes (json-scan.ts says why): the parser asks for a Buffer.
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body
    if (bytes.length === 0) {
      throw runtimeError('ENC_ERR_CTP_EMPTY_JSON_BODY')
    }
    // One pass for depth, number size and the poison pre-check (json-scan.ts).
    const flags = scanJson(bytes, maxDepth)
    checkScanned(flags)
    return parseScanned(typeof body === 'string' ? body : body.toString('utf8'), flags)
  }
  // The request path: the chunks go straight into the WebAssembly scanner's memory and the text
  // is decoded from there, with no concatenated Buffer in between (json-scan-wasm.ts).
  const fromChunks = (chunks: readonly Buffer[], length: number): unknown => {
    if (length >= WASM_SCAN_MIN_BYTES && length <= WASM_SCAN_MAX_BYTES) {
      const flags = scanJsonChunksWasm(chunks, length, maxDepth)
      if (flags >= 0) {
        checkScanned(flags)
        return parseScanned(decodeScanned(length), flags)
      }
    }
    return fn(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length))
  }
  return { fn, parseAs: 'buffer', bodyLimit: null, mode: 'collect', pattern: null, fromChunks, identityOnly: true }
}

export const textParser: BodyParser = {
  fn: (_request, body) => typeof body === 'string' ? body : body.toString('utf8'),
  parseAs: 'string',
  bodyLimit: null,
  mode: 'collect',
  pattern: null,
  identityOnly: true,
}
