/**
 * One pass over a JSON body's bytes before it is parsed, for the checks JSON.parse cannot make:
 * nesting depth (so no depth reaches a stack overflow in validation or serialization), number
 * literals that may be too large for a double, and whether a key could spell `__proto__` or
 * `constructor` (so secure-json-parse runs only then). It reads the raw Buffer, not the decoded
 * string: a byte loop with no native call per string is about 2x faster than a string loop that
 * skips strings with `indexOf('"')`, and the poison check, three `includes` over the text before
 * (`constructor` alone cost a quarter of the scan), comes with it (bench `bulk`, 64 KB).
 * UTF-8 continuation and lead bytes are all >= 0x80, so no byte of a multi-byte character can be
 * taken for a quote, a backslash, a bracket or a digit, and decoding keeps the structure.
 * Bodies of WASM_SCAN_MIN_BYTES or more are scanned by the WebAssembly form of this loop
 * (json-scan.wat, 64 bytes per step); the loop below serves small bodies, bodies past
 * WASM_SCAN_MAX_BYTES and engines without WebAssembly SIMD.
 */
import { scanJsonWasm, WASM_SCAN_MAX_BYTES } from './json-scan-wasm'
import { JSON_TOO_DEEP, JSON_MAY_OVERFLOW, JSON_NEEDS_POISON_CHECK, startsWithBom } from './json-scan-flags'

export { JSON_TOO_DEEP, JSON_MAY_OVERFLOW, JSON_NEEDS_POISON_CHECK } from './json-scan-flags'

const LONG_DIGIT_RUN = 210

const QUOTE = 34
const BACKSLASH = 92
const PROTO = [95, 95, 112, 114, 111, 116, 111, 95, 95] // __proto__
const CONSTRUCTOR = [99, 111, 110, 115, 116, 114, 117, 99, 116, 111, 114] // constructor

/** Whether `bytes[start, start + word.length)` is `word`. */
function spells(bytes: Uint8Array, start: number, word: readonly number[]): boolean {
  for (let k = 0; k < word.length; k++) if (bytes[start + k] !== word[k]) return false
  return true
}

/** A string literal's content `[start, end)` (no backslash in it) is `__proto__` or `constructor`. */
function isPoisonWord(bytes: Uint8Array, start: number, end: number): boolean {
  const length = end - start
  if (length === 9) return spells(bytes, start, PROTO)
  if (length === 11) return spells(bytes, start, CONSTRUCTOR)
  return false
}

/**
 * Below this size the call into WebAssembly (about 40 ns with the copy) costs more than the loop
 * (about 1.2 ns a byte): measured crossover 32-48 bytes of the bench `bulk` body.
 */
export const WASM_SCAN_MIN_BYTES = 40

/** JSON_TOO_DEEP, JSON_MAY_OVERFLOW and JSON_NEEDS_POISON_CHECK flags for `bytes`; 0 when none applies. Never throws. */
export function scanJson(bytes: Uint8Array, maxDepth: number): number {
  if (bytes.length >= WASM_SCAN_MIN_BYTES && bytes.length <= WASM_SCAN_MAX_BYTES) {
    const flags = scanJsonWasm(bytes, maxDepth)
    if (flags >= 0) return flags
  }
  return scanJsonLoop(bytes, maxDepth)
}

/**
 * The byte loop: scanJson's flags one byte at a time. The WebAssembly scan matches it exactly
 * on JSON text; on text JSON.parse refuses anyway it may also flag an exponent that follows
 * another (`1e+1e999`), which only costs a walk of the parsed values.
 */
export function scanJsonLoop(bytes: Uint8Array, maxDepth: number): number {
  let depth = 0
  let flags = startsWithBom(bytes) ? JSON_NEEDS_POISON_CHECK : 0
  let run = 0
  const n = bytes.length
  for (let i = 0; i < n; i++) {
    let c = bytes[i]
    if (c === QUOTE) {
      const start = i + 1
      let escaped = false
      for (i = start; i < n; i++) {
        c = bytes[i]
        if (c === QUOTE) break
        // The escaped character, a quote included, is skipped with its backslash.
        if (c === BACKSLASH) { escaped = true; i++ }
      }
      if (escaped) flags |= JSON_NEEDS_POISON_CHECK
      else if (i < n && isPoisonWord(bytes, start, i)) flags |= JSON_NEEDS_POISON_CHECK
      // Unterminated: the loop ends here and JSON.parse reports it.
      run = 0
      continue
    }
    if (c >= 48 && c <= 57) { // 0-9
      if (++run >= LONG_DIGIT_RUN) flags |= JSON_MAY_OVERFLOW
      continue
    }
    if ((c === 101 || c === 69) && run > 0) { // e, E right after a digit: an exponent
      let j = i + 1
      if (bytes[j] === 43 /* + */) j++
      let k = j
      while (k < n && bytes[k] >= 48 && bytes[k] <= 57) k++
      if (k - j >= 3) flags |= JSON_MAY_OVERFLOW
      run = 0
      i = Math.max(i, k - 1)
      continue
    }
    run = 0
    if (c === 123 || c === 91) { // { [
      if (++depth > maxDepth) return flags | JSON_TOO_DEEP
    } else if (c === 125 || c === 93) { // } ]
      depth--
    } else if (c === BACKSLASH) {
      // Outside a string JSON.parse refuses it anyway; flagged so no spelling is ever missed.
      flags |= JSON_NEEDS_POISON_CHECK
    }
  }
  return flags
}
