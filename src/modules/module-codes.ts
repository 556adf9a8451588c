/**
 * Error codes of the module layer: all raised by createApp() before the server starts serving.
 * Same shape as src/runtime/errors/runtime-codes.ts; `status` is null because none answers a request.
 */
export const moduleErrorCodes = {
  ENC_ERR_MODULE_NOT_A_MODULE: { status: null, summary: 'createApp() or a plugins list was given a class without @Module()' },
  ENC_ERR_MODULE_ENTRY_OPTIONS: { status: null, summary: 'a module was listed as [Module, options]; modules take their options in @Module()' },
  ENC_ERR_MODULE_CYCLE: { status: null, summary: 'a module lists itself, directly or through its children' },
  ENC_ERR_MODULE_DUPLICATE_ENTRY: { status: null, summary: 'one plugins list names the same module twice' },
  ENC_ERR_MODULE_DUPLICATE_CONTROLLER: { status: null, summary: 'one module lists the same controller twice' },
  ENC_ERR_MODULE_NOT_A_CONTROLLER: { status: null, summary: 'a controllers entry has no class-level @Route()' },
  ENC_ERR_MODULE_MISPLACED_DECORATOR: { status: null, summary: '@DecorateRequest/@DecorateReply/@Hook/@ErrorHandler on a controller instead of a module' },
  ENC_ERR_MODULE_UNLISTED_CONTROLLER: { status: null, summary: 'a class has route methods but no module lists it as a controller' },
  ENC_ERR_MODULE_NOT_A_SCHEMA: { status: null, summary: 'a schemas entry is a class without @Schema()' },
  ENC_ERR_MODULE_DUPLICATE_PROVIDER: { status: null, summary: 'one module (or a module and a module lifted into it) provides the same token twice' },
  ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE: { status: null, summary: 'a constructor dependency is not provided by the module or its ancestors' },
  ENC_ERR_MODULE_DEPENDENCY_UNTYPED: { status: null, summary: 'a constructor dependency has no usable runtime token (interface, primitive, missing metadata)' },
  ENC_ERR_MODULE_TSYRINGE_COPIES: { status: null, summary: "a provider was made @injectable() by a second copy of tsyringe, which Enclave's copy cannot see" },
  ENC_ERR_MODULE_INSTANTIATION: { status: null, summary: 'constructing a provider, module or controller threw' },
  ENC_ERR_MODULE_HANDLER_PARAMS: { status: null, summary: 'a handler decorates some of its parameters but not all' },
  ENC_ERR_MODULE_OVERRIDE_UNKNOWN: { status: null, summary: 'createApp({ overrides }) names a token that no module of the tree provides' },
  ENC_ERR_MODULE_OVERRIDE_INVALID: { status: null, summary: 'an overrides entry is not [Token, { useValue | useClass | useFactory }], or overrides one token twice' },
  ENC_ERR_MODULE_NOT_AN_APP: { status: null, summary: 'resolveProvider() was given a scope createApp() did not return, or a module class outside the app' },
} as const

export type ModuleErrorCode = keyof typeof moduleErrorCodes
