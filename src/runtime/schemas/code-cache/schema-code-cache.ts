/**
 * The server option `schemaCache`: generated validator and serializer code kept in one file per
 * app, so that a later boot evaluates it instead of compiling (Fastify 4's standalone compilers,
 * for one file). The file is read once, on the first lookup; each entry carries a SHA-256 of its
 * text, checked when the entry is used, so a damaged entry is a miss (compiled as usual), never a
 * different function. New entries are written when ready() (or ready({ compileAll: true })) ends,
 * to a temporary file renamed over the old one, so a reader never sees half a file. Writing never
 * fails a boot: a read-only directory warns once.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger, SchemaCacheMode, SchemaCacheStats } from '../../types'
import { sha256 } from './sha256'
import { SCHEMA_CACHE_FILE } from './cache-file'


/**
 * The file: this line, a line of JSON indexing the entries (`key: [kind, sha256, offset, length]`),
 * then the entries' texts end to end. One read and a small JSON.parse at load; an entry's text is
 * sliced out, checked and parsed only when it is used (a lazy app uses few). Storing the texts in
 * one JSON document instead cost a second escaping of every quote in the code, and a parse of all
 * of it (29 ms for 1,000 routes, against 1 ms for the index).
 */
const FILE_FORMAT = 'enclave-schema-cache/2'

/** An entry: its kind, the SHA-256 of its text, and the text (JSON of the packed function, ASCII). */
type StoredEntry = readonly [kind: string, sha256: string, text: string]

/** Every character outside ASCII as a JSON escape: the file is ASCII, read as latin1 (no UTF-8 decoding). */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function isLength(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}

/** A file whose first line names another format: written by another Enclave version, not damaged. */
class OtherFormat extends Error {}

/** The file's text, as written by serialize(); throws when it is not one. */
function parseFile(text: string): Map<string, StoredEntry> {
  const first = text.indexOf('\n')
  const format = first === -1 ? '' : text.slice(0, first)
  if (format !== FILE_FORMAT) {
    if (/^enclave-schema-cache\/\d+$/.test(format)) throw new OtherFormat(`written as ${format} by another Enclave version, this one reads ${FILE_FORMAT}`)
    throw new Error(`not a ${FILE_FORMAT} file`)
  }
  const second = text.indexOf('\n', first + 1)
  if (second === -1) throw new Error('no index line')
  const index = JSON.parse(text.slice(first + 1, second)) as unknown
  if (index === null || typeof index !== 'object' || Array.isArray(index)) throw new Error('the index is not an object')
  const body = second + 1
  const entries = new Map<string, StoredEntry>()
  for (const [key, item] of Object.entries(index)) {
    if (!Array.isArray(item) || item.length !== 4) throw new Error(`entry ${key} is malformed`)
    const [kind, sum, offset, length] = item as unknown[]
    if (typeof kind !== 'string' || typeof sum !== 'string' || !isLength(offset) || !isLength(length) || body + offset + length > text.length) {
      throw new Error(`entry ${key} is malformed`)
    }
    entries.set(key, [kind, sum, text.slice(body + offset, body + offset + length)])
  }
  return entries
}

function serialize(entries: ReadonlyMap<string, StoredEntry>): string {
  const index: Record<string, [string, string, number, number]> = {}
  const texts: string[] = []
  let offset = 0
  for (const [key, [kind, sum, text]] of entries) {
    index[key] = [kind, sum, offset, text.length]
    texts.push(text)
    offset += text.length
  }
  return `${FILE_FORMAT}\n${asciiJson(index)}\n${texts.join('')}`
}

export class SchemaCodeCache {
  readonly #file: string
  readonly #directory: string
  readonly #mode: SchemaCacheMode
  readonly #log: Logger
  #loaded: Map<string, StoredEntry> | null = null
  /** Entries used or added by this process: what the next write keeps. */
  readonly #used = new Map<string, StoredEntry>()
  #hits = 0
  #misses = 0
  #notCacheable = 0
  /** Misses not written yet. */
  #unwritten = 0
  /** One warning per server; what follows is logged at debug. */
  #warned = false
  /** Set by release(): every route is compiled, the entries are no longer kept in memory. */
  #released = false

  constructor(options: { directory: string; mode: SchemaCacheMode; log: Logger }) {
    this.#directory = options.directory
    this.#file = join(options.directory, SCHEMA_CACHE_FILE)
    this.#mode = options.mode
    this.#log = options.log
  }

  /**
   * The stored value for `key` of `kind`, or undefined (a miss). An entry whose text does not
   * match its checksum or does not parse is a miss, logged at warn.
   */
  get(kind: string, key: string): unknown {
    if (this.#released) return undefined
    const entry = this.#entries().get(key)
    if (entry === undefined || entry[0] !== kind) return undefined
    try {
      if (sha256(entry[2]) !== entry[1]) throw new Error('checksum mismatch')
      const value: unknown = JSON.parse(entry[2])
      this.#used.set(key, entry)
      return value
    } catch (error) {
      this.rejected(key, error)
      return undefined
    }
  }

  /** A stored value that did not evaluate (or was damaged): dropped, and compiled instead. */
  rejected(key: string, error: unknown): void {
    this.#loaded?.delete(key)
    this.#used.delete(key)
    this.#warn(`schemaCache: entry ${key} is damaged (${(error as Error)?.message ?? String(error)}); compiling instead`, { key, err: error })
  }

  /** A stored value used in place of compiling. */
  hit(): void {
    this.#hits++
  }

  /** A function compiled that the cache did not have: stored, and written at the end of ready(). */
  put(kind: string, key: string, value: unknown): void {
    this.#misses++
    if (this.#released) return
    const text = asciiJson(value)
    this.#used.set(key, [kind, sha256(text), text])
    this.#unwritten++
  }

  /** A function compiled that the cache cannot hold. */
  notCacheable(): void {
    this.#notCacheable++
  }

  stats(): SchemaCacheStats {
    return { file: this.#file, mode: this.#mode, hits: this.#hits, misses: this.#misses, notCacheable: this.#notCacheable }
  }

  /**
   * Writes the entries compiled since the last write (nothing when there are none, or in mode
   * 'read'). With `complete` (every route compiled), the file keeps only the entries this process
   * used, so entries of changed schemas do not pile up; otherwise (lazy routes still waiting) it
   * keeps what it read too.
   */
  flush(complete: boolean): void {
    if (this.#unwritten === 0) return
    if (this.#mode === 'read') {
      this.#warn(`schemaCache: ${this.#unwritten} schema function(s) were compiled because ${this.#file} did not have them (mode 'read': not written)`, {})
      this.#unwritten = 0
      return
    }
    const entries = new Map<string, StoredEntry>(complete ? [] : this.#entries())
    for (const [key, entry] of this.#used) entries.set(key, entry)
    const temporary = `${this.#file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    try {
      mkdirSync(this.#directory, { recursive: true })
      writeFileSync(temporary, serialize(entries), 'latin1')
      renameSync(temporary, this.#file)
      this.#unwritten = 0
      this.#loaded = entries
      this.#log.debug({ file: this.#file, entries: entries.size }, 'schemaCache: written')
    } catch (error) {
      try { unlinkSync(temporary) } catch { /* never created */ }
      this.#unwritten = 0
      this.#warn(`schemaCache: cannot write ${this.#file} (${(error as Error)?.message ?? String(error)}); the server runs, compiling what the cache lacks`, { err: error })
    }
  }

  /**
   * Every route is compiled and what was compiled is written: the file's text is dropped from
   * memory (several MB for 1,000 routes). Nothing is read or written afterwards.
   */
  release(): void {
    if (this.#unwritten > 0) return
    this.#released = true
    this.#loaded = new Map()
    this.#used.clear()
  }

  #warn(message: string, details: Record<string, unknown>): void {
    const level = this.#warned ? 'debug' : 'warn'
    this.#warned = true
    this.#log[level]({ file: this.#file, ...details }, message)
  }

  /** The file's entries, read on first use; a missing file is an empty cache, an unreadable one too (warned). */
  #entries(): Map<string, StoredEntry> {
    if (this.#loaded !== null) return this.#loaded
    this.#loaded = new Map()
    let text: string
    try {
      // Written as ASCII; a byte outside it (damage) changes the text, which its checksum then refuses.
      text = readFileSync(this.#file, 'latin1')
    } catch (error) {
      // No file yet (or no directory: it is created when written).
      const code = (error as NodeJS.ErrnoException)?.code
      if (code === 'ENOENT' || code === 'ENOTDIR') this.#log.debug({ file: this.#file }, 'schemaCache: no file yet; everything is compiled')
      else this.#warn(`schemaCache: cannot read ${this.#file}; everything is compiled`, { err: error })
      return this.#loaded
    }
    try {
      this.#loaded = parseFile(text)
    } catch (error) {
      const state = error instanceof OtherFormat ? 'not for this version' : 'damaged'
      this.#warn(`schemaCache: ${this.#file} is ${state} (${(error as Error)?.message ?? String(error)}); everything is compiled, and the file is rewritten`, { err: error })
    }
    return this.#loaded
  }
}
