import { codeSummaries, defineError as e, errorFactory } from './define-errors'

/** `GET /users/:id` (the declared path) or the URL for a not-found route: where a request-time error happened. */
interface At { readonly at: string }

/**
 * The runtime's errors, each declared once: status, docs/errors.md summary and message template. Each
 * area keeps its own table (schemas/, modules/, decorators/ and plugins/ have theirs);
 * `allErrorCodes` joins them and a test keeps the table in docs/errors.md in sync.
 * `status` is the HTTP status for errors that answer a request, `null` for boot errors.
 */
export const runtimeErrors = {
  ENC_ERR_PLUGIN_INVALID: e({ status: null, summary: 'register() was given something that is not a plugin function',
    message: (a: { path: string; got: string }) => `register() in ${a.path} takes a plugin function (async (scope, options) => {} or (scope, options, done) => {}), got ${a.got}.` }),
  ENC_ERR_PLUGIN_RETURNED_FUNCTION: e({ status: null, summary: 'a plugin without done returned a function: a plugin factory registered without being called (register(factory) for register(factory(options))), whose routes and hooks would never be declared',
    message: (a: { path: string; name: string; returned: string }) => `plugin ${a.path}: ${a.name === '' ? 'the plugin function' : a.name} returned a function${a.returned === '' ? '' : ` (${a.returned})`} instead of declaring anything, so nothing it would declare is served. ` +
      `It looks like a plugin factory registered without being called: register what it returns, register(${a.name === '' ? 'factory' : a.name}(options)). A plugin is async (scope, options) => { ... } or (scope, options, done) => { ... }.` }),
  ENC_ERR_PLUGIN_TIMEOUT: e({ status: null, summary: 'a plugin, after() callback or onReady hook did not call done() or settle its promise within pluginTimeout (an onClose or preClose hook is logged with it, and the close goes on)',
    message: (a: { what: string; timeout: number; waitingFor?: 'done' | 'promise' | 'either' }) =>
      a.waitingFor === 'promise' || a.waitingFor === 'either'
        ? `${a.what} returned a promise that did not settle within ${a.timeout} ms (pluginTimeout)${a.waitingFor === 'either' ? ' and did not call done()' : ''}. ` +
          'Make it resolve or reject when it has finished (give slow work such as a connection attempt its own timeout), or raise the pluginTimeout option (0: no limit).'
        : `${a.what} did not call done() within ${a.timeout} ms. Call done() when it has finished, or make it async.` }),
  ENC_ERR_PLUGIN_UNSUPPORTED_API: e({ status: null, summary: 'a plugin called a Fastify instance method Enclave does not offer (docs/plugins.md lists them)',
    message: (a: { api: string; path: string; instead?: string }) => `${a.api}() was called in ${a.path}: Enclave does not offer this Fastify API (docs/plugins.md lists what it offers). ${a.instead ?? 'A plugin that needs it cannot run in Enclave yet.'}` }),
  ENC_ERR_PLUGIN_MISSING_MIDDLEWARE: e({ status: null, summary: 'use() was called in a scope where no middleware plugin (@fastify/middie, @fastify/express) has decorated it',
    message: (a: { path: string }) => `use() was called in ${a.path}, but no middleware plugin provides it there. Register @fastify/middie (or @fastify/express) in this scope or an ancestor, and await the register, before calling use().` }),
  ENC_ERR_PLUGIN_ERROR_MIDDLEWARE: e({ status: null, summary: "use() of @fastify/middie was given an Express error middleware `(err, req, res, next)`, which middie would call as `(req, res, next)` on every request",
    message: (a: { path: string; name: string }) => `use() in ${a.path} was given ${a.name === '' ? 'an' : `'${a.name}', an`} Express error middleware (four parameters: err, req, res, next). @fastify/middie has no error middleware: it would call it as (req, res, next) on every request, and every request would fail. Handle errors with setErrorHandler() (or @ErrorHandler() in a module), and answer unknown routes with setNotFoundHandler() (docs/migrating-from-express.md, "Coming from Express").` }),
  ENC_ERR_PLUGIN_VERSION: e({ status: null, summary: "a plugin's plugin-meta `fastify` range excludes the Fastify plugin API line Enclave offers (5.x)",
    message: (a: { plugin: string; path: string; range: string; offered: string }) => `plugin '${a.plugin}' registered in ${a.path} expects Fastify '${a.range}', but Enclave offers the Fastify ${a.offered} plugin API (docs/plugins.md lists it). For a published plugin, use its major that supports Fastify 5; for one of your own moved from Fastify 3, write fastify: '5.x' in its fastify-plugin options or leave the key out (its requests keep Fastify 3's semantics).` }),
  ENC_ERR_PLUGIN_DEPENDENCY: e({ status: null, summary: "a plugin's plugin-meta dependency is not registered in its scope or an ancestor before it",
    message: (a: { plugin: string; path: string; dependency: string }) => `plugin '${a.plugin}' registered in ${a.path} depends on '${a.dependency}', which is not registered in this scope or an ancestor before it. Register '${a.dependency}' first (and await it), in the same scope or a parent.` }),
  ENC_ERR_PLUGIN_META: e({ status: null, summary: "`lift(plugin, meta)` was given metadata with an unknown field or a value of the wrong type, or meta for a class (a module class takes none)",
    message: (a: { plugin: string; problem: string }) => `lift(${a.plugin}, meta): ${a.problem}. meta takes { name?: string, dependencies?: (name | lifted plugin)[], decorators?: { fastify?, request?, reply?: names[] }, provides?: { request?, reply?, scope?: { name: type<T>() } } }.` }),
  ENC_ERR_PLUGIN_DERIVE: e({ status: null, summary: "`derive(derivers, options)` was given something other than an object of functions by decoration name, or an unknown option or stage",
    message: (a: { plugin: string; problem: string }) => `derive(${a.plugin}): ${a.problem}. derive takes ({ name: (request, reply) => value, ... }, { name?: string, stage?: 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler', dependencies?: (name | lifted plugin)[] }).` }),
  ENC_ERR_PLUGIN_PROVIDES: e({ status: null, summary: "a plugin whose `lift(plugin, { provides })` promised a request, reply or scope decoration loaded without making it",
    message: (a: { plugin: string; path: string; missing: readonly { name: string; target: 'request' | 'reply' | 'scope' }[] }) =>
      `Plugin '${a.plugin}' (registered in ${a.path}) promised ${a.missing.map((m) => `${m.target}.${m.name}`).join(', ')} in its provides but did not decorate ${a.missing.length === 1 ? 'it' : 'them'}: ` +
      `code typed by it would read undefined. In the plugin, call ${a.missing.map((m) => `scope.${m.target === 'request' ? 'decorateRequest' : m.target === 'reply' ? 'decorateReply' : 'decorate'}('${m.name}', ...)`).join(', ')} ` +
      '(for a request or reply, null as the placeholder a hook fills), or drop the name from provides.' }),
  ENC_ERR_PLUGIN_OPTIONS: e({ status: null, summary: "register()'s own options for an encapsulated plugin have the wrong type: `prefix` not a string, `logLevel` not a pino level, `logSerializers` not an object of functions",
    message: (a: { plugin: string; path: string; problem: string }) => `register(${a.plugin}) in ${a.path}: ${a.problem}. These options are the framework's (Fastify 3's pluginOverride): prefix is a path such as '/v1', logLevel one of fatal, error, warn, info, debug, trace, silent, and logSerializers { field: (value) => shown }.` }),
  ENC_ERR_PLUGIN_MISSING_DECORATOR: e({ status: null, summary: "a decorator named in a plugin's plugin-meta `decorators` is not visible where it is registered",
    // Fastify's sentence per decorator ("The decorator 'x' required by 'p' is not present in Request"), then where and the fix.
    message: (a: { plugin: string; path: string; missing: readonly { name: string; target: 'instance' | 'request' | 'reply' }[] }) =>
      `${a.missing.map((m) => `The decorator '${m.name}' required by '${a.plugin}' is not present in ${m.target === 'instance' ? 'the scope' : m.target === 'request' ? 'Request' : 'Reply'}`).join('; ')}` +
      ` (plugin '${a.plugin}' registered in ${a.path}). Register the plugin that provides ${a.missing.length === 1 ? 'it' : 'them'} first, in the same scope or a parent.` }),
  ENC_ERR_SCOPE_BOOTED: e({ status: null, summary: 'a declaration (route, hook, decorator, schema ...) was made after boot',
    message: (a: { what: string; path: string }) => `${a.what} in ${a.path} after the server booted. Declare everything inside plugins, before ready()/listen(). ` +
      'createApp() returns the app already booted: declare it in a plugin of a module (lift() it into the root module\'s plugins to reach the root scope).' }),
  ENC_ERR_DEC_ALREADY_PRESENT: e({ status: null, summary: 'a decorator with this name is already visible in the scope',
    message: (a: { call: string; path: string; by: string; existing: { origin: string; path: string }; again?: string; pluginName?: string | null }) => `${a.call} by ${a.by} in ${a.path}: ` +
      `a decorator with this name is already visible here, declared by ${a.existing.origin} in ${a.existing.path === a.path ? 'this scope' : a.existing.path}. ` +
      (a.again === undefined ? 'Rename it, or read the existing one.'
        // The same plugin twice in one scope: a plugin is not deduplicated by name (Elysia skips a named
        // plugin's second use()), so the fix is to drop a call, never to rename what it declares.
        : a.existing.path === a.path ? `The ${a.again} is registered in this scope already: register it once (${a.pluginName === undefined || a.pluginName === null ? '' : `scope.hasPlugin('${a.pluginName}') tells whether it is there; `}a plugin that needs it lists it in its dependencies instead of registering it).`
        : `The ${a.again} is registered in ${a.existing.path} already, and what it declares there is visible in every scope below: register it once, in ${a.existing.path} (or only in the scopes that need it, not in an ancestor of theirs). Options for one route go in that route's own calls (@fastify/multipart: request.file({ limits }) in the handler).`) }),
  ENC_ERR_DEC_REFERENCE_TYPE: e({ status: null, summary: 'an object or array as a request/reply decorator value would be shared by every request',
    message: (a: { call: string; path: string; why: string }) => `${a.call} in ${a.path}: ${a.why}.` }),
  ENC_ERR_DEC_RESERVED: e({ status: null, summary: 'the decorator name is a built-in property of the object',
    message: (a: { call: string; path: string; target: string }) => `${a.call} in ${a.path}: the name is a built-in property of the ${a.target}. Choose another name.` }),
  ENC_ERR_DEC_MISSING_DEPENDENCY: e({ status: null, summary: 'a decorator named in decorate(name, value, dependencies) is not visible',
    message: (a: { call: string; path: string; missing: readonly string[] }) => `${a.call} in ${a.path} depends on ${a.missing.map((d) => `'${d}'`).join(', ')}, not visible here. Declare ${a.missing.length === 1 ? 'it' : 'them'} first, in this scope or an ancestor.` }),
  ENC_ERR_DEC_UNDECLARED: e({ status: 500, summary: 'getDecorator()/setDecorator() (Fastify 5) named a decorator not declared for that scope, request or reply',
    message: (a: { call: string; path: string; declare: string }) => `${a.call} in ${a.path}: no such decorator is declared here. Declare it with ${a.declare} in this scope or an ancestor, or check first with has${a.declare.slice('decorate'.length)}Decorator().` }),
  ENC_ERR_DEC_DEPENDENCY_INVALID_TYPE: e({ status: null, summary: 'the dependencies argument of decorate(name, value, dependencies) is not an array',
    message: (a: { call: string; path: string; name: string; got: string }) => `${a.call} in ${a.path}: the dependencies of decorator '${a.name}' must be an array of decorator names, got ${a.got}.` }),
  ENC_ERR_HOOK_INVALID_NAME: e({ status: null, summary: 'addHook() was given an unknown hook name',
    message: (a: { name: string; path: string; known: readonly string[] }) => `addHook('${a.name}') in ${a.path}: unknown hook. Use one of ${a.known.join(', ')}.` }),
  ENC_ERR_HOOK_INVALID_HANDLER: e({ status: null, summary: 'a hook is not a function',
    message: (a: { where: string; problem: 'not-a-function' | 'not-a-function-option' | 'async-with-done'; got?: string; option?: string }) =>
      a.problem === 'async-with-done' ? `${a.where}: an async hook must not take a done parameter. Remove it and return (or throw) instead.`
        : a.problem === 'not-a-function-option' ? `${a.where}: the ${a.option} option must be a function or an array of functions.`
          : `${a.where}: the hook must be a function, got ${a.got}.` }),
  ENC_ERR_ROUTE_DUPLICATE: e({ status: null, summary: 'two routes share a method and path',
    message: (a: { method: string; url: string; first: string; second: string; ignoreTrailingSlash?: true }) => `${a.method} ${a.url} is declared twice${a.ignoreTrailingSlash ? ' (under ignoreTrailingSlash a path is also served with one trailing slash more or less)' : ''}: ${a.first} and ${a.second}. Remove one, or serve one at another path: change its own path (a controller's @Get('...') or @Route('...')), or its module's or plugin's prefix.` }),
  ENC_ERR_ROUTE_INVALID: e({ status: null, summary: 'a route definition is malformed (method, path, handler or option)',
    message: (a: { where: string; problem: string } | { setter: string; path: string; got: string }) => 'setter' in a
      ? `${a.setter}() in ${a.path} takes a function, got ${a.got}.` : `${a.where}: ${a.problem}.` }),
  ENC_ERR_NOT_FOUND_DUPLICATE: e({ status: null, summary: 'two scopes with the same prefix set a not-found handler',
    message: (a: { path: string; existing: string; prefix: string }) => `setNotFoundHandler() in ${a.path}: ${a.existing} already handles not-found requests for prefix '${a.prefix || '/'}'. Keep one, or register one of them with its own prefix.` }),
  ENC_ERR_NOT_FOUND_NO_PREFIX: e({ status: null, summary: 'setNotFoundHandler() in a scope that shares its parent prefix (it would answer the parent URLs)',
    message: (a: { path: string; prefix: string }) => `setNotFoundHandler() in ${a.path}: this scope has the same prefix ('${a.prefix || '/'}') as its parent, so its not-found handler would also answer the parent's unknown URLs. Register the plugin with its own prefix, or wrap it in lift() to set the parent's handler.` }),
  ENC_ERR_CTP_ALREADY_PRESENT: e({ status: null, summary: 'a content-type parser for this media type is already visible in the scope',
    message: (a: { type: string; path: string }) => `addContentTypeParser('${a.type}') in ${a.path}: a parser for this media type is already visible here.` }),
  ENC_ERR_CTP_INVALID: e({ status: null, summary: 'addContentTypeParser() was given a bad media type, parseAs or parser (or getDefaultJsonParser() a bad poisoning action)',
    message: (a: { path: string; type?: string; call?: string; parseAs?: string; hint?: string } | { path: string; poisoning: string; given: string }) => 'poisoning' in a
      ? `getDefaultJsonParser() in ${a.path}: ${a.poisoning} is ${a.given}; use 'error', 'remove' or 'ignore'.`
      : a.parseAs !== undefined
        ? `addContentTypeParser() in ${a.path}: parseAs is '${a.parseAs}'${a.hint ?? ''}; use 'string' or 'buffer'.`
        : a.type === undefined ? `addContentTypeParser() in ${a.path}: the parser must be a function.`
          : `${a.call ?? 'addContentTypeParser'}('${a.type}') in ${a.path}: not a media type (type/subtype), a RegExp or '*'.` }),
  ENC_ERR_CTP_INVALID_MEDIA_TYPE: e({ status: 415, summary: 'no parser accepts the request content type',
    message: (a: { contentType: string }) => `Unsupported Media Type: ${a.contentType}` }),
  ENC_ERR_CTP_UNSUPPORTED_ENCODING: e({ status: 415, summary: 'a JSON or text body with a Content-Encoding (gzip ...) that no preParsing hook decoded: the built-in parsers, and the JSON parser getDefaultJsonParser() returns, read bodies as sent (the built-in ones answer with Accept-Encoding: identity)',
    message: (a: { coding: string }) => `Unsupported Content-Encoding: ${a.coding}; send the body uncompressed` }),
  ENC_ERR_CTP_EMPTY_JSON_BODY: e({ status: 400, summary: 'a JSON content type with an empty body',
    message: () => "Body cannot be empty when content-type is set to 'application/json'" }),
  ENC_ERR_CTP_INVALID_JSON: e({ status: 400, summary: 'the body is not valid JSON',
    message: (a: { reason: string }) => `Body is not valid JSON: ${a.reason}` }),
  ENC_ERR_CTP_FORBIDDEN_PROTO: e({ status: 400, summary: 'the JSON body contains __proto__ or constructor.prototype',
    message: () => 'Object contains forbidden prototype property' }),
  ENC_ERR_CTP_JSON_TOO_DEEP: e({ status: 400, summary: 'the JSON body nests deeper than the configured limit',
    message: (a: { max: number }) => `Body nests deeper than ${a.max} levels` }),
  ENC_ERR_MULTIPART_MALFORMED: e({ status: 400, summary: 'a multipart body the multipart parser (@fastify/busboy, under @fastify/multipart) could not read: no boundary, a boundary over 252 characters, a body cut short',
    message: (a: { problem: string }) => `The multipart body is malformed: ${a.problem}` }),
  ENC_ERR_CTP_BODY_TOO_LARGE: e({ status: 413, summary: 'the body is larger than bodyLimit',
    message: (a: { limit: number }) => `Request body is too large: the limit is ${a.limit} bytes` }),
  ENC_ERR_CTP_INVALID_CONTENT_LENGTH: e({ status: 400, summary: "the body's size did not match its Content-Length (only a body Node's parser did not frame, such as inject() given its own content-length header; read with parseInt as Fastify 3 does, so one without leading digits declares nothing; Fastify 3's FST_ERR_CTP_INVALID_CONTENT_LENGTH)",
    message: (a: { received: number; declared: string }) => `Request body size did not match Content-Length: ${a.received} bytes received, Content-Length says ${a.declared}` }),
  ENC_ERR_CTP_BODY_TIMEOUT: e({ status: 408, summary: 'the request body was not received within bodyTimeout (the connection is closed)',
    message: (a: { ms: number }) => `The request body was not received within ${a.ms} ms` }),
  ENC_ERR_WS_HANDSHAKE_INVALID: e({ status: 400, summary: "a websocket upgrade that ws refuses (no or a bad Sec-WebSocket-Key, an unknown Sec-WebSocket-Version, an Upgrade that is not websocket; 405 for a method other than GET), with @fastify/websocket: answered in the JSON shape, then the connection is closed",
    message: (a: { reason: string }) => `Invalid websocket handshake: ${a.reason}.` }),
  ENC_ERR_METHOD_NOT_ALLOWED: e({ status: 405, summary: 'the path exists, but not for this method',
    message: (a: { method: string; path: string; allowed: readonly string[] }) => `Method ${a.method} is not allowed for ${a.path}; allowed: ${a.allowed.join(', ')}` }),
  ENC_ERR_BAD_URL: e({ status: 400, summary: 'the URL cannot be decoded',
    message: (a: { url: string }) => `'${a.url}' is not a valid URL` }),
  ENC_ERR_SERVER_CLOSING: e({ status: 503, summary: 'a request arrived after close() started and return503OnClosing is on',
    message: () => 'The server is closing' }),
  ENC_ERR_REWRITE_URL_INVALID: e({ status: 500, summary: 'the rewriteUrl server option returned something other than a string',
    message: (a: { url: string; got: string }) => `rewriteUrl() returned ${a.got} for '${a.url}'; it must return the url to route, a string` }),
  ENC_ERR_QUERY_TOO_MANY_KEYS: e({ status: 414, summary: 'the query string has more keys than maxQueryKeys',
    message: (a: { max: number }) => `The query string has more than ${a.max} keys` }),
  ENC_ERR_PARAM_TOO_LONG: e({ status: 414, summary: 'a route parameter is longer than maxParamLength',
    message: (a: { max: number }) => `A route parameter is longer than ${a.max} characters` }),
  // Written straight to the socket by serve/client-error.ts (no request object): the message is the reason phrase.
  ENC_ERR_REQUEST_MALFORMED: e({ status: 400, summary: 'Node could not parse the request (request line, headers or framing such as Content-Length with Transfer-Encoding), or cannot serve it (a PRI request line without a version, which Node takes for the HTTP/2 preface)',
    message: () => 'Bad Request' }),
  ENC_ERR_REQUEST_NO_HOST: e({ status: 400, summary: 'an HTTP/1.1 request without a Host header (RFC 9112 §3.2; the connection is closed)',
    message: () => 'An HTTP/1.1 request must carry a Host header' }),
  ENC_ERR_REQUEST_BAD_HOST: e({ status: 400, summary: 'more than one Host header, or a Host value that is no host[:port] (RFC 9112 §3.2; the connection is closed); over HTTP/2 likewise an :authority that is no host[:port], or a Host naming another host than :authority (RFC 9113 §8.3.1)',
    message: () => 'A request must carry one Host header whose value is a host, optionally with a port' }),
  ENC_ERR_REQUEST_TRANSFER_CODING: e({ status: 501, summary: 'a Transfer-Encoding with a coding other than chunked (gzip, chunked): not decoded, so refused before routing (RFC 9112 §6.1; the connection is closed)',
    message: () => 'The only transfer coding supported is chunked' }),
  ENC_ERR_REQUEST_HEADERS_TOO_LARGE: e({ status: 431, summary: 'the request headers are larger than Node accepts',
    message: () => 'Request Header Fields Too Large' }),
  ENC_ERR_REQUEST_TIMEOUT: e({ status: 408, summary: 'the client did not send the request in time',
    message: () => 'Request Timeout' }),
  ENC_ERR_REQUEST_EXPECTATION_FAILED: e({ status: 417, summary: 'an Expect header other than 100-continue (answered before routing; the connection is closed when a body was announced)',
    message: () => 'The only expectation supported is 100-continue' }),
  ENC_ERR_REQUEST_CONNECT_UNSUPPORTED: e({ status: 501, summary: 'a CONNECT request: the server is no proxy (answered before routing; the connection is closed, over HTTP/2 the stream)',
    message: () => 'CONNECT is not supported' }),
  ENC_ERR_HANDLER_TIMEOUT: e({ status: 503, summary: 'the request was not answered within handlerTimeout (logged); request.signal aborts with this error',
    message: (a: At & { ms: number }) => `${a.at}: no reply within handlerTimeout (${a.ms} ms); answered 503. ` +
      'The handler or a hook is still running (request.signal has aborted) and whatever it sends later is ignored: find what it waits for, or raise handlerTimeout.' }),
  // 499 is nginx's "client closed request": never sent (there is nobody to send it to), but an
  // error handler or a log that reads statusCode sees a client-side end, not a server failure.
  ENC_ERR_REQUEST_ABORTED: e({ status: 'none', statusCode: 499, summary: 'the reason request.signal carries when the client closed the connection before the reply was written (nothing is sent)',
    message: () => 'The client closed the connection before the reply was written' }),
  // A log entry's code, not an Error: serve/write-payload.ts logs it with this message.
  ENC_ERR_REPLY_ALREADY_SENT: e({ status: 'none', summary: 'reply.send() was called after the reply was sent (logged, ignored); or reply.sent = true was set after it was sent or hijacked (thrown, as Fastify 3\'s FST_ERR_REP_ALREADY_SENT)',
    message: (a: { sentSetter?: true; returnedAt?: string } = {}) => a.sentSetter === true
      ? 'reply.sent = true: the reply was already sent (or hijacked), so there is nothing left to hijack; check reply.sent before setting it'
      : a.returnedAt !== undefined
      ? `${a.returnedAt}: the handler returned a value after the reply was sent (by its own reply.send(), or by handlerTimeout's 503); the value was ignored. Return the value or call reply.send(), not both (after reply.send(), return reply or nothing)`
      : 'reply.send() was called after the reply was sent; ignored' }),
  ENC_ERR_REPLY_SERIALIZATION: e({ status: 500, summary: 'the response payload could not be serialized (logged)',
    message: (a: { at?: string; status?: number; reason?: string; hooked?: boolean }) => a.at === undefined ? 'an onSend hook returned a payload that is not a string, Buffer or stream'
      : `${a.at}: the ${a.status} response could not be serialized: ${a.reason}` + (a.hooked === true
        ? ". The route's preSerialization hooks ran first, so the serializer got the payload they returned: a hook that wraps the payload (an interceptor's { data }) needs a response schema describing the wrapper, or belongs in onSend"
        : '') }),
  ENC_ERR_REPLY_INVALID_HEADER: e({ status: 500, summary: 'a reply header name or value was refused by Node (a newline, say), or the handler had already written to reply.raw when the reply was sent (the connection is then closed); logged',
    message: (a: At & { reason: string } | At & { started: true }) => 'started' in a
      ? `${a.at}: the reply could not be sent: the handler had already written to reply.raw, so the response had started; the connection is closed. Write the whole response on reply.raw after reply.hijack(), or leave reply.raw alone and use reply.send()`
      : `${a.at}: a reply header was refused: ${a.reason}` }),
  ENC_ERR_REPLY_INVALID_STATUS: e({ status: 500, summary: 'reply.code() was given a value that is not a final HTTP status (1xx included)',
    message: (a: { given: string }) => `reply.code(${a.given}): a status must be an integer from 200 to 599 (a 1xx is not a final response).` }),
  ENC_ERR_REPLY_SENT_VALUE: e({ status: 500, summary: "reply.sent was set to something other than true (Fastify 3's deprecated way to hijack a reply, FST_ERR_REP_SENT_VALUE: only true is taken; reply.hijack() says the same)",
    message: (a: { given: string }) => `reply.sent = ${a.given}: the only value reply.sent takes is true (Fastify 3's deprecated form of reply.hijack()); call reply.hijack() instead.` }),
  ENC_ERR_REPLY_INVALID_HTTP_ERROR: e({ status: 500, summary: 'new HttpError() was given a status that is not an integer from 400 to 599, a message that is not a string (NestJS\'s object form), an unknown option (did you mean ...), details that are not a JSON-serializable plain object, or headers Node would refuse (thrown by the constructor; a handler that throws it answers the generic 500)',
    message: (a: { given: string } | { details: string } | { headers: string } | { message: string; status: number } | { options: string }) => 'message' in a
      ? `new HttpError(${a.status}, message): the message must be a string, got ${a.message}. Fields besides the message go in the options: new HttpError(${a.status}, 'No cat with id 7', { code: 'CAT_NOT_FOUND', details: { catId: 7 } }) answers {"statusCode":${a.status},"code":"CAT_NOT_FOUND","error":...,"message":"No cat with id 7","details":{"catId":7}}.`
      : 'options' in a
      ? `new HttpError(status, message, options): ${a.options}. The options are { code?, cause?, details?, headers? }: response headers go in headers (new HttpError(401, 'Unauthorized', { headers: { 'www-authenticate': 'Bearer' } })), extra body fields in details.`
      : 'details' in a
      ? `new HttpError(status, message, { details }): details must be a plain object that JSON.stringify() can write (it becomes the body's "details"), got ${a.details}.`
      : 'headers' in a
      ? `new HttpError(status, message, { headers }): headers must be valid response header names and values (set on the reply with the error), got ${a.headers}.`
      : `new HttpError(${a.given}): an HttpError's status must be an integer from 400 to 599. For another status, use reply.code() and send a payload.` }),
  ENC_ERR_REPLY_INVALID_REDIRECT: e({ status: 500, summary: 'reply.redirect() was given a target that is not a string',
    message: (a: { method: string; url: string; got: string }) => `reply.redirect() on ${a.method} ${a.url}: the target url must be a string, got ${a.got}.` }),
  ENC_ERR_REQUEST_VALIDATION_INVOCATION: e({ status: 500, summary: "request.validateInput() was given neither a schema nor an HTTP part the route has a schema for (Fastify 4+'s FST_ERR_REQ_INVALID_VALIDATION_INVOCATION)",
    message: (a: At & { part: string }) => `${a.at}: request.validateInput() has no schema to validate with: ${a.part === '' ? 'no schema object and no HTTP part were given' : `the route has no ${a.part} schema, and no schema object was given`}. Pass a schema, or one of body, querystring, params, headers that the route declares.` }),
  ENC_ERR_REPLY_MISSING_SERIALIZATION_FN: e({ status: 500, summary: "reply.serializeInput() was given a status (and content type) the route's response schema has no key for (Fastify 4+'s FST_ERR_MISSING_SERIALIZATION_FN)",
    message: (a: At & { status: string; contentType?: string }) => a.contentType === undefined
      ? `${a.at}: reply.serializeInput() found no response schema keyed '${a.status}' on this route (keys are matched as declared: 200, 2xx, default). Pass a schema instead, or declare one for '${a.status}'.`
      : `${a.at}: reply.serializeInput() found no response schema for '${a.status}' and content type '${a.contentType}': Enclave's response schemas are per status, not per content type. Pass a schema, or leave the content type out.` }),
  ENC_ERR_SERVER_INVALID_TRUST_PROXY: e({ status: null, summary: 'createServer() was given a trustProxy that is not true/false, a hop count, addresses/subnets or a function',
    message: (a: { given: string; reason: string }) => `createServer({ trustProxy: ${a.given} }): ${a.reason}. Use true, a hop count, '127.0.0.1,10.0.0.0/8' (or a list) or (address, hop) => boolean.` }),
  ENC_ERR_REPLY_NOTHING_SENT: e({ status: 500, summary: 'an async handler (or any controller method) gave undefined, an interceptor gave undefined after calling next(), or an error handler returned, without sending a reply',
    message: (a: { at: string } | { errorHandlerOf: string; handling: string } | { interceptorAt: string; interceptor: string; route: string; dropped: 'value' | 'error' }) => 'interceptorAt' in a
      ? `${a.interceptorAt}: the interceptor ${a.interceptor} (on ${a.route}) called next() but its intercept() gave undefined, so ${a.dropped === 'error' ? "the route method's error it caught there" : "the route method's value"} was dropped (the handler answered; the interceptor did not pass the answer on). Return what next() gives: \`return next()\`, or \`return await next()\` mapped as you need${a.dropped === 'error' ? ', and rethrow or map the error in catch' : ''}.`
      : 'at' in a
      ? `${a.at}: the handler gave undefined without sending a reply. Return the payload, set reply.code(204) (or 304) for an empty answer, or return reply when it will send later.`
      : `the error handler of ${a.errorHandlerOf} returned without sending a reply (while handling: ${a.handling}). Send a reply, return a payload, or return reply when it will send later.` }),
  // A log entry's code, not an Error sent: serve/send.ts logs it.
  ENC_ERR_REPLY_UNDEFINED_ERROR: e({ status: 500, summary: 'a hook, handler or error handler threw (or rejected with) undefined or null: the error handlers get this error instead',
    message: () => 'Undefined error has occurred' }),
  ENC_ERR_REPLY_UNREADABLE_THROWN: e({ status: 500, summary: 'a hook, handler or error handler threw a value whose properties or headers throw when read (a getter, Proxy trap or toString()): the error handlers get this error instead (logged)',
    message: (a: { reading: string }) => `A value was thrown whose ${a.reading === 'its prototype' || a.reading === 'its keys' ? a.reading : `'${a.reading}'`} cannot be read (it throws when read); it is replaced by this error. Throw an Error, or an object with plain data properties.` }),
  // A log entry's code: the headers are out, so the connection is closed instead of an answer.
  ENC_ERR_REPLY_STREAM_LENGTH: e({ status: 'none', summary: 'a stream reply gave more or fewer bytes than the Content-Length set for it: the body is cut and the connection closed (logged), never left to desynchronise a keep-alive client',
    message: (a: At & { declared: string; streamed: number }) => `${a.at}: the reply declared Content-Length ${a.declared} but its stream gave ${a.streamed} byte(s)${a.streamed > Number(a.declared) ? ' or more' : ''}; the connection was closed. Set the length the stream really has, or none.` }),
  // A log entry's code: the connection is cut, there is no request to answer.
  ENC_ERR_CONNECTION_QUEUE_LIMIT: e({ status: 'none', summary: 'a client that is not reading had more than maxQueuedBytes of output queued for it (the socket\'s buffer, plus what a stream reply\'s source holds) and the queue was still growing: its connection is closed, or on HTTP/2 that one stream reset (logged at warn, with the route)',
    message: (a: { queued: number; limit: number; what: string; cut: string }) => `${a.what}: ${a.queued} bytes were queued for a client that is not reading them (maxQueuedBytes ${a.limit}) and more kept coming; ${a.cut}. A producer should wait for 'drain' (or watch writableLength / a websocket's bufferedAmount) and drop clients that fall behind; raise maxQueuedBytes (0: no limit) if such queues are expected.` }),
  // A log entry's code: nothing is refused, the connection is read again as its answers go out.
  ENC_ERR_CONNECTION_PIPELINED_LIMIT: e({ status: 'none', summary: 'a client pipelined more than maxPipelinedRequests requests on one connection without their answers going out: the requests past it wait (their handlers not run) and the connection is not read until answers go out (logged once per connection at warn, once held requests waited ~0.5 s with no answer going out)',
    message: (a: { limit: number; what: string }) => `${a.what}: a client has more than maxPipelinedRequests (${a.limit}) requests in flight on one connection; the requests past it wait for earlier answers to go out and the connection is not read meanwhile. Nothing is refused: a client reading its answers gets them all, in order. Raise maxPipelinedRequests (0: no limit) if deep pipelining is expected.` }),
  ENC_ERR_REPLY_STREAM_CHUNK: e({ status: 500, summary: 'an object-mode stream reply gave a chunk that is neither a string nor bytes (an object, a number): a 500 if nothing was written yet, else the body is cut and the connection closed (logged)',
    message: (a: At & { got: string }) => `${a.at}: the reply's stream gave ${a.got}; a stream reply must give strings, Buffers or Uint8Arrays. Serialize each item first (NDJSON: JSON.stringify(item) + '\\n').` }),
  ENC_ERR_REPLY_WEB_STREAM_LOCKED: e({ status: 500, summary: "a web ReadableStream sent as the reply (or a fetch Response's body) is locked by a reader (Fastify 5's FST_ERR_REP_READABLE_STREAM_LOCKED)",
    message: (a: At) => `${a.at}: the ReadableStream sent is locked by a reader. Call reader.releaseLock() before sending it, or send the stream the reader was taken from unread.` }),
  ENC_ERR_REPLY_RESPONSE_BODY_USED: e({ status: 500, summary: "a fetch Response sent as the reply has a body that was already read (Fastify 5's FST_ERR_REP_RESPONSE_BODY_CONSUMED)",
    message: (a: At) => `${a.at}: the Response sent has a body that was already read (bodyUsed). Send a Response whose body is unread, or send what was read from it.` }),
  ENC_ERR_REPLY_SEND_INSIDE_ON_ERROR: e({ status: 'none', summary: 'reply.send() was called inside an onError hook (it throws this error and logs it; the error reply goes on)',
    message: (a: At) => `${a.at}: reply.send() inside an onError hook is refused. Answer from an error handler (setErrorHandler) instead.` }),
  ENC_ERR_BODY_INVALID_CHUNK: e({ status: 500, summary: "a preParsing hook's stream emitted a chunk that is neither bytes nor a string (logged)",
    message: (a: At & { got: string }) => `${a.at}: the body stream a preParsing hook returned emitted ${a.got}; it must emit Buffers, Uint8Arrays or strings.` }),
  ENC_ERR_REPLY_PENDING_PAYLOAD: e({ status: 500, summary: 'the payload holds a promise (`return { user: fetchUser() }`: a forgotten await), which JSON would write as {}; the answer is a 500 naming where it is, not {} with a 200 (logged)',
    message: (a: At & { path: string }) => `${a.at}: the payload holds a promise at ${a.path}, which JSON would write as {}. Await it before returning (\`{ user: await fetchUser() }\`, or Promise.all for several).` }),
  ENC_ERR_REPLY_INVALID_PAYLOAD_TYPE: e({ status: 500, summary: 'an object was sent with a content type that is not JSON and no reply.serializer(), or a serializer returned something other than a string or Buffer',
    message: (a: At & ({ contentType: string } | { status: number; got: string } | { status: number; noJson: string })) => 'contentType' in a
      ? `${a.at}: an object was sent with content type '${a.contentType}'. Send a string or Buffer for that type, set reply.serializer(), or use a JSON type.`
      : 'noJson' in a
      ? `${a.at}: the ${a.status} payload is ${a.noJson}, which has no JSON form. Send (or return) a value JSON can write.`
      : `${a.at}: the serializer of the ${a.status} response returned ${a.got}, not a string or Buffer. Make the serializer (reply.serializer(), setReplySerializer() or the serializerCompiler's function) return the serialized text.` }),
  ENC_ERR_SERVER_INVALID_OPTION: e({ status: null, summary: 'createServer() was given an unknown option (did you mean ...) or a Fastify option Enclave does not offer (logger.prettyPrint ...: the message says what to do instead), a constraints strategy or versioning option of the wrong shape, an https/http2/http2SessionTimeout/serverFactory of the wrong shape, TLS options node:tls refuses, a serverFactory given with https, http2 or a server-level timeout, or a factory that returns no server, a limit or timeout that is not a non-negative integer, or headersTimeout above requestTimeout, or a schemaCompilation (option or setSchemaCompilation()) other than eager or lazy, or an onProtoPoisoning/onConstructorPoisoning other than error, remove or ignore, or a logger given both file and stream (or a file that is not a path, or that cannot be opened), or a schemaCache that is not { directory, mode?: read-write or read }',
    message: (a: { name: string; given: string; min: number; fallback: number } | { headersTimeout: number; requestTimeout: number } | { where: string; given: string } | { problem: string }) => 'problem' in a
      ? `createServer(${a.problem}`
      : 'where' in a
      ? `${a.where}: schemaCompilation must be 'eager' or 'lazy', got ${a.given}.`
      : 'name' in a
        ? `createServer({ ${a.name}: ${a.given} }): ${a.name} must be an integer >= ${a.min}${a.min === 0 ? ' (0 turns it off)' : ''}. Omit it for the default, ${a.fallback}.`
        : `createServer(): headersTimeout (${a.headersTimeout}) is longer than requestTimeout (${a.requestTimeout}), which covers the headers too. Lower headersTimeout or raise requestTimeout.` }),
  ENC_ERR_INSPECT_NOT_BOOTED: e({ status: null, summary: 'printRoutes/printTree/printPlugins/explain/inspect/openapi was called before the server booted',
    message: (a: { path: string }) => `printRoutes/printTree/printPlugins/explain/inspect/openapi on ${a.path}: the server has not booted yet. ` +
      'Call them after `await app.ready()` (createApp() returns a booted app), or in an onReady hook.' }),
  ENC_ERR_INSPECT_INVALID_OPTIONS: e({ status: null, summary: "printRoutes() or openapi() was given an option it does not know or cannot honour (commonPrefix: true; routes other than 'all' or 'scope') or a value of the wrong type",
    message: (a: { path: string; problem: string; method?: string }) => `${a.method ?? 'printRoutes'}() on ${a.path}: ${a.problem}.` }),
  ENC_ERR_INSPECT_ROUTE_NOT_FOUND: e({ status: null, summary: "explain() was given a route that is not declared ('METHOD /declared/path')",
    message: (a: { given: string } | { wanted: string; nearest: readonly string[] }) => 'given' in a
      ? `explain(${a.given}): give a method and a declared path, e.g. explain('POST /notes/:id').`
      : `explain('${a.wanted}'): no route has this method and declared path.` +
        (a.nearest.length > 0 ? ` Did you mean ${a.nearest.map((r) => `'${r}'`).join(' or ')}?` : ' The server has no routes.') +
        // The silent case of the module layer: a @Route() class that no module lists is not served, and not an error (docs/controllers.md).
        ' If a controller declares it, check that a module of this app lists that controller in its controllers, and that the path has the module\'s and the controller\'s prefixes (printRoutes() lists every route).' }),
  ENC_ERR_SERVER_INVALID_PORT: e({ status: null, summary: 'listen() was given a port that is not an integer from 0 to 65535 (a string of digits, as an environment variable holds, is accepted) nor a socket path (one with a \'/\', or a Windows pipe), or both a port and a path',
    message: (a: { given: string; path: string }) => `listen() in ${a.path}: ${a.given} is not a port (an integer from 0 to 65535) ` +
      'nor a socket path (one with a \'/\', such as \'/run/app.sock\' or \'./app.sock\', or a Windows pipe \'\\\\.\\pipe\\name\'). Check the variable it comes from; 0 picks a free port.' }),
  ENC_ERR_SERVER_LISTEN_OPTIONS: e({ status: null, summary: "listen() was given an option it does not know (did you mean ...): it takes port, host or path, and Node's backlog, exclusive, readableAll, writableAll, ipv6Only and signal",
    message: (a: { unknown: string; path: string; known: readonly string[] }) =>
      `listen() in ${a.path}: ${a.unknown}. listen() takes { port, host } or { path }, and Node's ${a.known.filter((k) => !['port', 'host', 'path'].includes(k)).join(', ')} (a misspelt option is not ignored: a misspelt port would listen on a random free one, a misspelt host on 127.0.0.1).` }),
  ENC_ERR_SERVER_LISTEN_FAILED: e({ status: null, summary: "listen() could not bind: the port is taken (EADDRINUSE), needs privileges (EACCES), the host is not this machine's (EADDRNOTAVAIL) or does not resolve (ENOTFOUND). The error is Node's own, as Fastify 3 rethrows it (`error.code` stays 'EADDRINUSE' ...), with this message and `error.enclaveCode`",
    message: (a: { path: string; where: string; node: string; fix: string }) => `listen() in ${a.path}: cannot listen on ${a.where} (${a.node}). ${a.fix}.` }),
  ENC_ERR_SERVER_LISTENING: e({ status: null, summary: 'listen() was called on a server that is already listening',
    message: (a: { path: string }) => `listen() in ${a.path}: the server is already listening. Call close() first.` }),
  ENC_ERR_SERVER_CLOSED: e({ status: null, summary: 'listen() was called once close() had started (Fastify 3: FST_ERR_REOPENED_CLOSE_SERVER)',
    message: (a: { path: string }) => `listen() in ${a.path}: close() was called on this server, so its onClose hooks have released what it used. Create a new server to listen again.` }),
}

export type RuntimeErrorCode = keyof typeof runtimeErrors

/** Builds a runtime error from its table entry: `runtimeError('ENC_ERR_BAD_URL', { url })`. */
export const runtimeError = errorFactory(runtimeErrors)

/** Status and summary per code (the columns of docs/errors.md's table). */
export const runtimeErrorCodes = codeSummaries(runtimeErrors)
