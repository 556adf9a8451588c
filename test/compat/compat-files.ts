// Which of Fastify 3.27.4's own test files run against Enclave: those of the areas Enclave
// claims (schemas, validation errors, hooks, decorators, plugins, 404s, content-type parsers,
// routes, errors and replies; the router, request, server and logger; server options, HTTP/2 and
// HTTPS). They are read from the installed tarball
// (devDependency fastify3), never copied.
import path from 'node:path'

export const fastifyTestDir = path.join(path.dirname(require.resolve('fastify3/package.json')), 'test')

export const compatFiles: readonly string[] = [
  // schemas and validation errors
  'schema-feature.test.js',
  'schema-serialization.test.js',
  'schema-validation.test.js',
  'schema-special-usage.test.js',
  'output-validation.test.js',
  'nullable-validation.test.js',
  'fluent-schema.test.js',
  'schema-examples.test.js',
  'validation-error-handling.test.js',
  // hooks
  'hooks.test.js',
  'hooks-async.test.js',
  'route-hooks.test.js',
  'hooks.on-ready.test.js',
  // decorators and plugins
  'decorator.test.js',
  'plugin.test.js',
  'register.test.js',
  // 404s
  '404s.test.js',
  // content-type parsers
  'content-parser.test.js',
  'custom-parser.test.js',
  'custom-parser-async.test.js',
  // routes and methods
  'route.test.js',
  'route-prefix.test.js',
  'get.test.js',
  'head.test.js',
  'delete.test.js',
  'put.test.js',
  'patch.test.js',
  'options.test.js',
  // errors and replies (paritya, session 11): thrown and rejected errors, 5xx payloads, error
  // handlers per method, streams, hijacked replies, body size and prototype-poisoned bodies
  'reply-error.test.js',
  '500s.test.js',
  'async-await.test.js',
  'throw.test.js',
  'promises.test.js',
  'wrapThenable.test.js',
  'sync-routes.test.js',
  'skip-reply-send.test.js',
  'stream.test.js',
  'request-error.test.js',
  'options.error-handler.test.js',
  'put.error-handler.test.js',
  'patch.error-handler.test.js',
  'content-length.test.js',
  'bodyLimit.test.js',
  'proto-poisoning.test.js',
  // router, request, server and logger (parityb, session 11): proxy headers, router options and
  // constraints, request ids, logging, inject, URL rewriting, route context, listen and close
  'trust-proxy.test.js',
  'case-insensitive.test.js',
  'router-options.test.js',
  'versioned-routes.test.js',
  'constrained-routes.test.js',
  'genReqId.test.js',
  'logger.test.js',
  'inject.test.js',
  'custom-querystring-parser.test.js',
  'url-rewriting.test.js',
  'context-config.test.js',
  'handler-context.test.js',
  'default-route.test.js',
  'chainable.test.js',
  'same-shape.test.js',
  'close.test.js',
  'listen.test.js',
  // server options, timeouts, pipelining, the instance, middleware, printRoutes/printPlugins,
  // warnings, the diagnostics channel, HTTP/2 and HTTPS (parity12, session 12). internals/ is left
  // out: it reads Fastify's lib/ files, not behaviour.
  'als.test.js',
  'close-pipelining.test.js',
  'connectionTimeout.test.js',
  'custom-http-server.test.js',
  'keepAliveTimeout.test.js',
  'maxRequestsPerSocket.test.js',
  'requestTimeout.test.js',
  'middleware.test.js',
  'fastify-instance.test.js',
  'pretty-print.test.js',
  'noop-set.test.js',
  'emit-warning.test.js',
  'diagnostics-channel.test.js',
  'imports.test.js',
  'http2/closing.test.js',
  'http2/constraint.test.js',
  'http2/head.test.js',
  'http2/missing-http2-module.test.js',
  'http2/plain.test.js',
  'http2/secure-with-fallback.test.js',
  'http2/secure.test.js',
  'http2/unknown-http-method.test.js',
  'https/custom-https-server.test.js',
  'https/https.test.js',
]
