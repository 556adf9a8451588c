/**
 * Error codes of the decorator layer: all raised at declaration time, when a decorator runs.
 * Same shape as src/runtime/errors/runtime-codes.ts; `status` is null because none answers a request.
 */
export const decoratorErrorCodes = {
  ENC_ERR_DECL_MODULE_OPTIONS: { status: null, summary: '@Module() was given an unknown option key or a value of the wrong type' },
  ENC_ERR_DECL_MODULE_ENTRY: { status: null, summary: 'an entry of a @Module() list is undefined or of the wrong type (often a circular import)' },
  ENC_ERR_DECL_TARGET: { status: null, summary: 'a decorator is used on the wrong kind of member (a property, a constructor parameter) or with the wrong argument for it' },
  ENC_ERR_DECL_ROUTE_OPTIONS: { status: null, summary: 'a route decorator was given a bad method, path or an unknown route option' },
  ENC_ERR_DECL_SCHEMA_ID: { status: null, summary: '@Schema() was given a schema without a string $id' },
  ENC_ERR_DECL_DECORATOR_DUPLICATE: { status: null, summary: 'the same request/reply decorator name is declared twice on one module class' },
  ENC_ERR_DECL_DECORATOR_NAME: { status: null, summary: '@DecorateRequest()/@DecorateReply() was given an empty or non-string name' },
  ENC_ERR_DECL_HOOK_NAME: { status: null, summary: '@Hook() was given an unknown hook name' },
  ENC_ERR_DECL_ERROR_HANDLER_DUPLICATE: { status: null, summary: 'a module class has more than one @ErrorHandler() method' },
  ENC_ERR_DECL_STATIC_MEMBER: { status: null, summary: 'a method decorator was put on a static method' },
  ENC_ERR_DECL_PARAM_DUPLICATE: { status: null, summary: 'one handler parameter carries two parameter decorators' },
  ENC_ERR_DECL_SCHEMA_CLASS: { status: null, summary: 'SchemaClass() was given something other than a JSON Schema object' },
  ENC_ERR_DECL_SCHEMA_CONFLICT: { status: null, summary: 'a route gives a schema in its options for a part whose handler parameter is a schema class, and the two differ' },
} as const

export type DecoratorErrorCode = keyof typeof decoratorErrorCodes
