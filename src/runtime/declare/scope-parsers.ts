import { runtimeError } from '../errors/runtime-codes'
import { undecodedCoding } from '../shared/content-coding'
import type { ScopeImpl } from './scope'
import { normalizeDeclaredType } from '../shared/media-type'
import { parserMode } from '../shared/body-parser'
import { isPoisonAction, type PoisonAction } from '../shared/json-poisoning'
import { warnPayloadParser } from '../shared/deprecations'
import { isAsyncFunction } from './option-checks'
import { didYouMean } from '../schemas'
import type { ContentTypeParserFn, ContentTypeParserCallback, ContentTypeStreamParser, ContentTypeParserOptions } from '../types'

export type AnyParser = ContentTypeParserFn | ContentTypeParserCallback | ContentTypeStreamParser

/** What getDefaultJsonParser() returns: Fastify's `(request, body, done)` form. */
export type DefaultJsonParser = (request: unknown, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => void

/** A RegExp content type as matched: without `g`/`y`, whose lastIndex would make test() alternate. */
function matchingPattern(declared: RegExp): RegExp {
  return declared.global || declared.sticky ? new RegExp(declared.source, declared.flags.replace(/[gy]/g, '')) : declared
}

export function addContentTypeParser(scope: ScopeImpl, types: string | RegExp | Array<string | RegExp>, a: ContentTypeParserOptions | AnyParser, b?: AnyParser): void {
  scope.assertDeclarable('addContentTypeParser()')
  const options = typeof a === 'function' ? {} : a ?? {}
  const fn = typeof a === 'function' ? a : b
  if (typeof fn !== 'function') throw runtimeError('ENC_ERR_CTP_INVALID', { path: scope.path })
  if (options.parseAs !== undefined && options.parseAs !== 'string' && options.parseAs !== 'buffer') {
    throw runtimeError('ENC_ERR_CTP_INVALID', { path: scope.path, parseAs: String(options.parseAs), hint: didYouMean(String(options.parseAs), ['string', 'buffer']) })
  }
  const mode = parserMode(fn, options.parseAs !== undefined, isAsyncFunction(fn))
  if (mode === 'payload') warnPayloadParser()
  for (const declared of Array.isArray(types) ? types : [types]) {
    const pattern = declared instanceof RegExp ? matchingPattern(declared) : null
    const type = declared instanceof RegExp ? `regexp:${declared.toString()}` : typeof declared === 'string' ? normalizeDeclaredType(declared) : null
    if (type === null) throw runtimeError('ENC_ERR_CTP_INVALID', { path: scope.path, type: String(declared) })
    // As Fastify 3, '*' may be declared again: the later catch-all replaces the earlier one here
    // and below. The built-in JSON and text parsers are not in any scope's store, so each may
    // be replaced once, as Fastify allows, and only once.
    if (type !== '*' && parserOwner(scope, type) !== null) {
      throw runtimeError('ENC_ERR_CTP_ALREADY_PRESENT', { type, path: scope.path })
    }
    scope.parsers.set(type, { fn: fn as ContentTypeParserFn, parseAs: options.parseAs ?? 'string', bodyLimit: options.bodyLimit ?? null, mode, pattern })
  }
}

export function hasContentTypeParser(from: ScopeImpl, type: string | RegExp): boolean {
  const normalized = type instanceof RegExp ? `regexp:${type.toString()}` : normalizeDeclaredType(type)
  if (normalized === null) return false
  for (let scope: ScopeImpl | null = from; scope !== null; scope = scope.parent) {
    if (scope.parsers.has(normalized)) return true
    if (scope.removedAllParsers || scope.removedParsers.has(normalized)) return false
  }
  return from.context.defaultParsers.has(normalized)
}

/** Fastify's: this scope and its descendants no longer parse these types (built-in ones included). */
export function removeContentTypeParser(scope: ScopeImpl, types: string | RegExp | Array<string | RegExp>): void {
  scope.assertDeclarable('removeContentTypeParser()')
  for (const declared of Array.isArray(types) ? types : [types]) {
    const type = declared instanceof RegExp ? `regexp:${declared.toString()}` : normalizeDeclaredType(String(declared))
    if (type === null) throw runtimeError('ENC_ERR_CTP_INVALID', { path: scope.path, type: String(declared), call: 'removeContentTypeParser' })
    scope.parsers.delete(type)
    scope.removedParsers.add(type)
  }
}

/** Fastify's: this scope and its descendants start with no parser at all, built-in ones included. */
export function removeAllContentTypeParsers(scope: ScopeImpl): void {
  scope.assertDeclarable('removeAllContentTypeParsers()')
  scope.parsers.clear()
  scope.removedAllParsers = true
}

/**
 * Fastify's: the built-in JSON parser in the `(request, body, done)` form, for another media
 * type (`{ parseAs: 'string' }`). `onProtoPoisoning`/`onConstructorPoisoning`: 'error'
 * (refused with a 400, the default), 'remove' (the key is dropped) or 'ignore'.
 */
export function defaultJsonParser(scope: ScopeImpl, onProtoPoisoning: PoisonAction, onConstructorPoisoning: PoisonAction): DefaultJsonParser {
  // Checked here: secure-json-parse would take a misspelt action ('erorr') as 'ignore'.
  for (const [poisoning, given] of [['onProtoPoisoning', onProtoPoisoning], ['onConstructorPoisoning', onConstructorPoisoning]] as const) {
    if (!isPoisonAction(given)) throw runtimeError('ENC_ERR_CTP_INVALID', { path: scope.path, poisoning, given: typeof given === 'string' ? `'${given}'` : String(given) })
  }
  const parse = scope.context.makeJsonParser({ protoAction: onProtoPoisoning, constructorAction: onConstructorPoisoning }).fn
  return (request, body, done) => {
    // As the built-in parser it is: a gzip body no preParsing hook decoded is the 415 that says so,
    // not a 400 quoting compressed bytes (a raw-body parser that keeps the bytes hands them here).
    const coding = isServedRequest(request) ? undecodedCoding(request) : null
    if (coding !== null) {
      done(runtimeError('ENC_ERR_CTP_UNSUPPORTED_ENCODING', { coding }))
      return
    }
    let value: unknown
    try {
      value = parse(request as never, body)
    } catch (error) {
      done(error as Error)
      return
    }
    done(null, value)
  }
}

/** A request as the server hands it to a parser (a caller may pass anything else, as Fastify allows). */
function isServedRequest(request: unknown): request is Parameters<typeof undecodedCoding>[0] {
  if (typeof request !== 'object' || request === null || !('payloadStream' in request)) return false
  const raw = (request as { raw?: { headers?: unknown } }).raw  // node:http's request or HTTP/2's compatibility one
  return typeof raw === 'object' && raw !== null && typeof raw.headers === 'object' && raw.headers !== null
}

function parserOwner(from: ScopeImpl, type: string): ScopeImpl | null {
  for (let scope: ScopeImpl | null = from; scope !== null; scope = scope.parent) {
    if (scope.parsers.has(type)) return scope
    if (scope.removedAllParsers || scope.removedParsers.has(type)) return null
  }
  return null
}
