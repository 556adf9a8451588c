import type { RequestBase } from './types'

/*
 * Types only: what Fastify plugins (the @fastify/* packages) add to a request, a reply or an
 * instance, read from their own declarations. A plugin types its decorations by augmenting
 * `fastify`'s FastifyRequest / FastifyReply / FastifyInstance; Enclave's types cannot import
 * `fastify` (it is not a dependency, and an app without it must still compile), so the app hands
 * the augmented interfaces over in one `declare module 'enclave'` block (docs/schemas-and-types.md, "Typed handlers"):
 *
 *   import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
 *   import type { FastifyRequestDecorations, FastifyReplyDecorations, FastifyInstanceDecorations } from 'enclave'
 *   declare module 'enclave' {
 *     interface RequestDecorations extends FastifyRequestDecorations<FastifyRequest> {}
 *     interface ReplyDecorations extends FastifyReplyDecorations<FastifyReply> {}
 *     interface ScopeDecorations extends FastifyInstanceDecorations<FastifyInstance> {}
 *   }
 *
 * A decoration is a member Fastify's own interface does not declare: the interfaces are merged
 * with every augmentation, so Fastify's own members are named here (Fastify 3 to 5's, and
 * Enclave's request members: Enclave's own type always wins). Symbol-keyed members (Fastify 5's
 * `[Symbol.asyncDispose]`) are left out: Enclave's scope has none.
 */

type FastifyRequestOwn =
  | 'id' | 'params' | 'raw' | 'query' | 'headers' | 'log' | 'server' | 'body' | 'req' | 'ip' | 'ips'
  | 'host' | 'port' | 'hostname' | 'url' | 'originalUrl' | 'protocol' | 'method' | 'routeOptions'
  | 'is404' | 'socket' | 'signal' | 'mediaType' | 'validationError' | 'getValidationFunction'
  | 'compileValidationSchema' | 'validateInput' | 'getDecorator' | 'setDecorator'
  // Fastify 3/4's
  | 'connection' | 'context' | 'routerMethod' | 'routerPath' | 'routeConfig' | 'routeSchema'

type FastifyReplyOwn =
  | 'callNotFound' | 'code' | 'compileSerializationSchema' | 'elapsedTime' | 'getDecorator' | 'getHeader'
  | 'getHeaders' | 'getSerializationFunction' | 'hasHeader' | 'hasTrailer' | 'header' | 'headers'
  | 'hijack' | 'log' | 'raw' | 'redirect' | 'removeHeader' | 'removeTrailer' | 'request'
  | 'routeOptions' | 'send' | 'sent' | 'serialize' | 'serializeInput' | 'serializer' | 'server'
  | 'status' | 'statusCode' | 'then' | 'trailer' | 'type' | 'writeEarlyHints' | 'setDecorator'
  // Fastify 3/4's
  | 'context' | 'getResponseTime'

type FastifyInstanceOwn =
  | 'addConstraintStrategy' | 'addContentTypeParser' | 'addHook' | 'addHttpMethod' | 'addSchema'
  | 'addresses' | 'after' | 'all' | 'childLoggerFactory' | 'close' | 'copy' | 'decorate'
  | 'decorateReply' | 'decorateRequest' | 'defaultTextParser' | 'delete' | 'errorHandler' | 'findRoute'
  | 'get' | 'getDecorator' | 'getDefaultJsonParser' | 'getSchema' | 'getSchemas' | 'hasConstraintStrategy'
  | 'hasContentTypeParser' | 'hasDecorator' | 'hasPlugin' | 'hasReplyDecorator' | 'hasRequestDecorator'
  | 'hasRoute' | 'head' | 'initialConfig' | 'inject' | 'listen' | 'listeningOrigin' | 'lock' | 'log'
  | 'mkcalendar' | 'mkcol' | 'move' | 'onClose' | 'options' | 'patch' | 'pluginName' | 'post' | 'prefix'
  | 'printPlugins' | 'printRoutes' | 'propfind' | 'proppatch' | 'put' | 'query' | 'ready' | 'register'
  | 'removeAllContentTypeParsers' | 'removeContentTypeParser' | 'report' | 'route' | 'routing' | 'search'
  | 'serializerCompiler' | 'server' | 'setChildLoggerFactory' | 'setErrorHandler' | 'setGenReqId'
  | 'setNotFoundHandler' | 'setReplySerializer' | 'setSchemaController' | 'setSchemaErrorFormatter'
  | 'setSerializerCompiler' | 'setValidatorCompiler' | 'supportedMethods' | 'trace' | 'unlock'
  | 'validatorCompiler' | 'version' | 'withTypeProvider'
  // Fastify 3/4's
  | 'getDefaultRoute' | 'setDefaultRoute'

type Decorations<T, Own extends string> = Pick<T, Exclude<Extract<keyof T, string>, Own>>

/** What the Fastify plugins the program imports add to `FastifyRequest` (`request.cookies`, `request.jwtVerify()`, `request.file()`). */
export type FastifyRequestDecorations<FastifyRequest> = Decorations<FastifyRequest, FastifyRequestOwn | keyof RequestBase>
/** What they add to `FastifyReply` (`reply.setCookie()`, `reply.jwtSign()`, `reply.sendFile()`); the ones that return a reply return a FastifyReply. */
export type FastifyReplyDecorations<FastifyReply> = Decorations<FastifyReply, FastifyReplyOwn>
/** What they add to `FastifyInstance` (`app.jwt`, `app.httpErrors`, `app.multipartErrors`). */
export type FastifyInstanceDecorations<FastifyInstance> = Decorations<FastifyInstance, FastifyInstanceOwn>
