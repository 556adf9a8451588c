import { JSON_SCAN_WASM } from './json-scan-wasm-binary'
import { JSON_NEEDS_POISON_CHECK, startsWithBom } from './json-scan-flags'

/**
 * The WebAssembly (SIMD) form of the JSON pre-scan (json-scan.wat): 64 bytes per step instead of
 * one, about 7x less CPU on a 64 KB body, copy into its memory included (bench `bulk`). One
 * instance per thread, made on first use; the scan is synchronous, so one memory serves every
 * request. Bodies are copied whole, so the memory grows to the largest body scanned, up to
 * WASM_SCAN_MAX_BYTES: larger bodies take the JavaScript loop. The JSON parser copies the
 * body's chunks straight in and decodes the text from there (scanJsonChunksWasm,
 * decodeScanned), which saves concatenating them first (a 64 KB allocation and copy).
 */

export const WASM_SCAN_MAX_BYTES = 4 * 1024 * 1024
/** Spaces written after the body: the last 64-byte block and the exponent look-ahead read them. */
const PADDING = 80
/** The padding, copied in with set(): Buffer.fill's argument checks cost more than the copy on a small body. */
const SPACES = new Uint8Array(PADDING).fill(0x20)
const PAGE = 65536

// The project's lib (ES2022 + node) declares no WebAssembly: the little used here, typed here.
interface WasmMemory { readonly buffer: ArrayBuffer; grow(pages: number): number }
interface WasmApi {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object) => { readonly exports: unknown }
}

interface Scanner {
  readonly memory: WasmMemory
  readonly scan: (length: number, maxDepth: number) => number
  /** The memory as a Buffer, for its copy and decode; replaced when the memory grows. */
  view: Buffer
}

let scanner: Scanner | null | undefined

/** The instance, or null where WebAssembly or its SIMD is not available (`--jitless`, old engines). */
function load(): Scanner | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly
  if (wasm === undefined) return null
  try {
    const module = new wasm.Module(Buffer.from(JSON_SCAN_WASM, 'base64'))
    const exports = new wasm.Instance(module).exports as { memory: WasmMemory; scan: Scanner['scan'] }
    return { memory: exports.memory, scan: exports.scan, view: Buffer.from(exports.memory.buffer) }
  } catch {
    return null
  }
}

/** Whether the WebAssembly scan runs here; the JavaScript loop stands in where it does not. */
export function wasmScanAvailable(): boolean {
  if (scanner === undefined) scanner = load()
  return scanner !== null
}

/** The instance with room for `length` bytes and their padding; null where there is no WebAssembly or no memory to grow into. */
function ready(length: number): Scanner | null {
  if (scanner === undefined) scanner = load()
  if (scanner === null) return null
  const needed = length + PADDING
  if (scanner.view.length < needed) {
    try {
      scanner.memory.grow(Math.ceil((needed - scanner.view.length) / PAGE))
    } catch {
      // No memory for it now (RangeError): this body takes the loop, the next may fit.
      return null
    }
    // Growing detaches the old buffer.
    scanner.view = Buffer.from(scanner.memory.buffer)
  }
  return scanner
}

/** The scan's own flag (json-scan.wat): a byte of the body is 0x80 or more. Kept here, not in the flags it returns. */
const NON_ASCII = 8
/** Whether the last body scanned is all ASCII (decodeScanned). */
let lastAscii = false

/** Pads the `length` bytes copied in, scans them and adds the byte-order-mark flag. */
function scanCopied(wasm: Scanner, length: number, maxDepth: number): number {
  wasm.view.set(SPACES, length)
  // The wasm parameter is an i32: a larger limit would wrap (2^31 to a negative one). No body of
  // at most WASM_SCAN_MAX_BYTES nests that deep anyway.
  const scanned = wasm.scan(length, Math.min(maxDepth, 0x7fffffff))
  lastAscii = (scanned & NON_ASCII) === 0
  const flags = scanned & ~NON_ASCII
  return startsWithBom(wasm.view) ? flags | JSON_NEEDS_POISON_CHECK : flags
}

/** The scan's flags for `bytes` (at most WASM_SCAN_MAX_BYTES); -1 where the WebAssembly scan cannot run. */
export function scanJsonWasm(bytes: Uint8Array, maxDepth: number): number {
  const wasm = ready(bytes.length)
  if (wasm === null) return -1
  wasm.view.set(bytes, 0)
  return scanCopied(wasm, bytes.length, maxDepth)
}

/**
 * The scan's flags for the body made of `chunks` (`length` bytes in all, at most
 * WASM_SCAN_MAX_BYTES), which stay in the scanner's memory for decodeScanned; -1 where the
 * WebAssembly scan cannot run.
 */
export function scanJsonChunksWasm(chunks: readonly Uint8Array[], length: number, maxDepth: number): number {
  const wasm = ready(length)
  if (wasm === null) return -1
  let offset = 0
  for (const chunk of chunks) {
    wasm.view.set(chunk, offset)
    offset += chunk.length
  }
  return scanCopied(wasm, length, maxDepth)
}

/**
 * The UTF-8 text of the last body scanned, `length` bytes; call before the next scan. An all-ASCII
 * body, as the scan found it (json-scan.wat), is decoded as Latin-1: the same text for bytes under
 * 0x80, and a plain copy (the bench `bulk` body, 64 KB: 3.0 µs, where UTF-8 takes 5.4 and the
 * separate isAscii pass before, 0.8 more). A byte-order mark or any other non-ASCII byte (a
 * malformed one too) takes the UTF-8 decoder.
 */
export function decodeScanned(length: number): string {
  return (scanner as Scanner).view.toString(lastAscii ? 'latin1' : 'utf8', 0, length)
}
