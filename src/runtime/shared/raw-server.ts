/*
 * The server a scope runs on, in its type (Fastify's RawServer generic): `createServer({ http2: true })`
 * returns a scope whose `server` is an Http2Server. Carried as a phantom key read back from `this`
 * (as TypedScope's decorations are), so a `(scope: Scope) => ...` plugin still takes every scope.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Server as HttpsServer } from 'node:https'
import type { Http2SecureServer, Http2Server, Http2ServerRequest, Http2ServerResponse } from 'node:http2'

/** The phantom key of a scope's raw server types. Declared only: nothing has it at run time. */
export declare const kRawServer: unique symbol

/** Node's server, request and response types of one kind of server. */
// `kind` tells them apart: an https.Server is structurally an http.Server too.
export interface RawServerTypes { readonly kind: string; readonly server: object; readonly request: object; readonly reply: object }
export interface HttpRaw extends RawServerTypes { readonly kind: 'http'; readonly server: Server; readonly request: IncomingMessage; readonly reply: ServerResponse }
export interface HttpsRaw extends RawServerTypes { readonly kind: 'https'; readonly server: HttpsServer; readonly request: IncomingMessage; readonly reply: ServerResponse }
export interface Http2Raw extends RawServerTypes { readonly kind: 'http2'; readonly server: Http2Server; readonly request: Http2ServerRequest; readonly reply: Http2ServerResponse }
export interface Http2SecureRaw extends RawServerTypes { readonly kind: 'http2-secure'; readonly server: Http2SecureServer; readonly request: Http2ServerRequest; readonly reply: Http2ServerResponse }

/**
 * What createServer()'s `http2` and `https` options make, as Fastify's overloads type it: `http2: true`
 * an Http2Server (with `https`, an Http2SecureServer), `https` alone an https.Server, else http.Server
 * (`http2` typed `boolean` rather than `true` cannot be told apart: http's, as Fastify's default).
 */
export type RawServerFor<H2, S> = [H2] extends [true] ? ([S] extends [undefined | null] ? Http2Raw : Http2SecureRaw)
  : [S] extends [undefined | null] ? HttpRaw : undefined extends S ? HttpRaw : HttpsRaw

/** The phantom a scope on a non-HTTP/1.1 server carries; nothing for http's (a plain Scope). */
export type RawServerMark<R extends RawServerTypes> = [R['kind']] extends ['http'] ? unknown : { readonly [kRawServer]: R }
/** The raw server types of a scope's type: its mark's, else http's. */
export type RawIn<This> = This extends { readonly [kRawServer]: infer R extends RawServerTypes } ? R : HttpRaw
/** The mark of `This` to carry onto the scopes made from it (a child, the scope register() returns). */
export type RawMarkOf<This> = This extends { readonly [kRawServer]: infer R extends RawServerTypes } ? { readonly [kRawServer]: R } : unknown
/** `request.raw`'s type on the server `This` runs on, for a function given only the raw request (`RequestOn<typeof app>` types the whole request: request-with.ts). */
export type RawRequestOf<This> = RawIn<This>['request']
/** `reply.raw`'s type on the server `This` runs on. */
export type RawReplyOf<This> = RawIn<This>['reply']
/**
 * What the handlers and hooks of a scope on a non-HTTP/1.1 server see besides the request and reply
 * types: `raw` as that server's (`request.raw` an Http2ServerRequest on `createServer({ http2: true })`).
 * Intersected with Request's own `raw` (IncomingMessage): the server's members read, and a value of
 * the server's type is what it gives; nothing on an http server, whose handlers keep their very types.
 */
// eslint-disable-next-line @typescript-eslint/ban-types
export type RawSeenIn<This> = This extends { readonly [kRawServer]: infer R extends RawServerTypes }
  ? { readonly request: { readonly raw: R['request'] }; readonly reply: { readonly raw: R['reply'] } }
  : { readonly request: {}; readonly reply: {} }
