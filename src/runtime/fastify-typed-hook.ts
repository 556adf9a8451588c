import type { Reply, Request } from './types'

/*
 * Types only: a request hook typed for Fastify, as the @fastify/* auth plugins hand them out
 * (@fastify/passport's `authenticate()`, @fastify/auth's `fastify.auth([...])`, a hook written
 * `(request: FastifyRequest, reply: FastifyReply, done)`), taken by a route's `onRequest`,
 * `preValidation` and `preHandler` with no cast. At run time Enclave calls it with its own request,
 * reply and scope, which is what such plugins already get when registered on Enclave.
 *
 * Enclave cannot name `fastify`'s types (not a dependency), and its Request is not assignable to
 * FastifyRequest (nor its Scope to FastifyInstance: hundreds of differently typed members), so the
 * hook cannot simply be a member of the option's union of function types: a second function type
 * there would also cost every inline hook its contextual typing (TypeScript types a parameter from
 * a union only when the members' signatures are identical). The route methods infer the hook's own
 * type instead (a type parameter per stage, `never` when no such hook is given, so the union is the
 * one it was) and keep it only if it reads as Fastify's:
 * - at most three parameters (request, reply, done): a hook wanting a fourth is refused;
 * - its request parameter unannotated, or an object with Fastify's `raw`, `id`, `params` and
 *   `server`, whose `id`, `url`, `method` and `raw` take Enclave's;
 * - its reply parameter unannotated, or an object with `raw`, `send`, `code` and `statusCode`,
 *   whose `statusCode` and `raw` take Enclave's.
 * Anything else becomes {@link NotAFastifyHook}, and the route does not compile. Its `this` is not
 * read (Fastify's FastifyInstance: Enclave passes the scope, as it does to any hook).
 */

/** What a hook that fits neither an Enclave hook nor a Fastify-typed one is checked against: the key names the shape wanted. */
export interface NotAFastifyHook {
  'a route hook is (request, reply, done?) => unknown, typed for Enclave (Request, Reply) or for Fastify (FastifyRequest, FastifyReply)': never
}

/** What a preSerialization or onSend hook that fits neither Enclave's nor Fastify's shape is checked against. */
export interface NotAFastifyPayloadHook {
  'a payload hook is (request, reply, payload, done?) => unknown, typed for Enclave (Request, Reply) or for Fastify (FastifyRequest, FastifyReply)': never
}
/** What an onError hook that fits neither Enclave's nor Fastify's shape is checked against. */
export interface NotAFastifyErrorHook {
  'an error hook is (request, reply, error: Error, done?) => unknown, typed for Enclave (Request, Reply) or for Fastify (FastifyRequest, FastifyReply, FastifyError)': never
}

/** `H` when it is a request hook typed for Fastify (see above), else {@link NotAFastifyHook}; `never` stays `never` (no such hook given). */
export type FastifyTypedHook<H> = H extends (request: infer Q, reply: infer P, done: infer _Done) => unknown
  ? FastifyRequestLike<Q> extends true ? FastifyReplyLike<P> extends true ? H : NotAFastifyHook : NotAFastifyHook
  : NotAFastifyHook

/**
 * The Fastify-typed hooks a list (`onRequest: [passport.authenticate('jwt'), app.basicAuth]`) may
 * hold, each checked as {@link FastifyTypedHook}. The route methods infer the stage's type
 * parameter from the list as a whole (its element type is the union of its hooks), not from each
 * element: inferred per element, TypeScript kept one candidate (their common supertype, else one of
 * them) and refused every other Fastify hook in the list, which the runtime runs like any other.
 */
export type FastifyTypedHookIn<L> = L extends readonly (infer E)[] ? FastifyTypedHook<E> : FastifyTypedHook<L>

/**
 * The same for Fastify's preSerialization and onSend hooks, `(request, reply, payload, done)`: at
 * most four parameters, request and reply read as above; the payload may be typed as the hook
 * likes (Fastify's `addHook` infers it too; Enclave hands the value it has at that stage).
 */
export type FastifyTypedPayloadHook<H> = H extends (request: infer Q, reply: infer P, payload: infer _Payload, done: infer _Done) => unknown
  ? FastifyRequestLike<Q> extends true ? FastifyReplyLike<P> extends true ? H : NotAFastifyPayloadHook : NotAFastifyPayloadHook
  : NotAFastifyPayloadHook

/**
 * The same for Fastify's onError hook, `(request, reply, error, done)`: the error parameter an
 * Error or a subtype of one (Fastify's FastifyError: what it reads, `code`, `statusCode`, is
 * there on Enclave's coded errors, and absent, as in Fastify, on a plain thrown Error).
 */
export type FastifyTypedErrorHook<H> = H extends (request: infer Q, reply: infer P, error: infer E, done: infer _Done) => unknown
  ? FastifyRequestLike<Q> extends true ? FastifyReplyLike<P> extends true ? unknown extends E ? H : [E] extends [Error] ? H : NotAFastifyErrorHook : NotAFastifyErrorHook : NotAFastifyErrorHook
  : NotAFastifyErrorHook

type RequestKey = 'id' | 'url' | 'method' | 'raw'
type ReplyKey = 'statusCode' | 'raw'

type FastifyRequestLike<Q> = unknown extends Q ? true
  : [Q] extends [{ raw: unknown; id: unknown; params: unknown; server: unknown }]
    ? [{ [K in RequestKey]: Request[K] }] extends [{ [K in RequestKey]: K extends keyof Q ? Q[K] : unknown }] ? true : false
    : false

type FastifyReplyLike<P> = unknown extends P ? true
  : [P] extends [{ raw: unknown; send: unknown; code: unknown; statusCode: unknown }]
    ? [{ [K in ReplyKey]: Reply[K] }] extends [{ [K in ReplyKey]: K extends keyof P ? P[K] : unknown }] ? true : false
    : false
