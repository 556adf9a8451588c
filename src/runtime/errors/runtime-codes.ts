/**
 * The runtime's error codes. Each area keeps its own table (schemas/, modules/ and plugins/ have
 * theirs); `allErrorCodes` joins them and a test keeps the README's table in sync.
 * `status` is the HTTP status for errors that answer a request, `null` for boot errors.
 */
export const runtimeErrorCodes = {
  ENC_ERR_PLUGIN_INVALID: { status: null, summary: 'register() was given something that is not a plugin function' },
  ENC_ERR_PLUGIN_TIMEOUT: { status: null, summary: 'a callback plugin did not call done() within pluginTimeout' },
  ENC_ERR_SCOPE_BOOTED: { status: null, summary: 'a declaration (route, hook, decorator, schema ...) was made after boot' },
  ENC_ERR_DEC_ALREADY_PRESENT: { status: null, summary: 'a decorator with this name is already visible in the scope' },
  ENC_ERR_DEC_REFERENCE_TYPE: { status: null, summary: 'an object or array as a request/reply decorator value would be shared by every request' },
  ENC_ERR_DEC_RESERVED: { status: null, summary: 'the decorator name is a built-in property of the object' },
  ENC_ERR_HOOK_INVALID_NAME: { status: null, summary: 'addHook() was given an unknown hook name' },
  ENC_ERR_HOOK_INVALID_HANDLER: { status: null, summary: 'a hook is not a function' },
  ENC_ERR_ROUTE_DUPLICATE: { status: null, summary: 'two routes share a method and path' },
  ENC_ERR_ROUTE_INVALID: { status: null, summary: 'a route definition is malformed (method, path, handler or option)' },
  ENC_ERR_NOT_FOUND_DUPLICATE: { status: null, summary: 'two scopes with the same prefix set a not-found handler' },
  ENC_ERR_CTP_ALREADY_PRESENT: { status: null, summary: 'a content-type parser for this media type is already visible in the scope' },
  ENC_ERR_CTP_INVALID: { status: null, summary: 'addContentTypeParser() was given a bad media type or parser' },
  ENC_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, summary: 'no parser accepts the request content type' },
  ENC_ERR_CTP_EMPTY_JSON_BODY: { status: 400, summary: 'a JSON content type with an empty body' },
  ENC_ERR_CTP_INVALID_JSON: { status: 400, summary: 'the body is not valid JSON' },
  ENC_ERR_CTP_FORBIDDEN_PROTO: { status: 400, summary: 'the JSON body contains __proto__ or constructor.prototype' },
  ENC_ERR_CTP_JSON_TOO_DEEP: { status: 400, summary: 'the JSON body nests deeper than the configured limit' },
  ENC_ERR_CTP_BODY_TOO_LARGE: { status: 413, summary: 'the body is larger than bodyLimit' },
  ENC_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, summary: 'the received body does not match content-length' },
  ENC_ERR_NOT_FOUND: { status: 404, summary: 'no route matches the method and path' },
  ENC_ERR_METHOD_NOT_ALLOWED: { status: 405, summary: 'the path exists, but not for this method' },
  ENC_ERR_BAD_URL: { status: 400, summary: 'the URL cannot be decoded' },
  ENC_ERR_QUERY_TOO_MANY_KEYS: { status: 414, summary: 'the query string has more keys than maxQueryKeys' },
  ENC_ERR_PARAM_TOO_LONG: { status: 414, summary: 'a route parameter is longer than maxParamLength' },
  ENC_ERR_REQUEST_TIMEOUT: { status: 408, summary: 'the client did not send the request in time' },
  ENC_ERR_HANDLER_TIMEOUT: { status: 503, summary: 'the request was not answered within handlerTimeout' },
  ENC_ERR_REPLY_ALREADY_SENT: { status: null, summary: 'reply.send() was called after the reply was sent (logged, ignored)' },
  ENC_ERR_REPLY_SERIALIZATION: { status: 500, summary: 'the response payload could not be serialized (logged)' },
  ENC_ERR_REPLY_INVALID_STATUS: { status: 500, summary: 'reply.code() was given a value that is not an HTTP status' },
  ENC_ERR_REPLY_NOTHING_SENT: { status: 500, summary: 'an async handler resolved undefined without sending a reply' },
  ENC_ERR_SERVER_LISTENING: { status: null, summary: 'listen() was called on a server that is already listening' },
} as const
