/**
 * Errors of the decorator layer, each declared once (status, docs/errors.md summary, message template):
 * all raised at declaration time, when a decorator runs, so `status` is null. Same shape as the
 * runtime's tables; kept here because this layer imports nothing of the runtime (DESIGN §1).
 */
interface DeclarationErrorDefinition<A> { readonly status: null; readonly summary: string; readonly message: (args: A) => string }
const e = <A>(definition: DeclarationErrorDefinition<A>): DeclarationErrorDefinition<A> => definition

export const decoratorErrors = {
  ENC_ERR_DECL_MODULE_OPTIONS: e({ status: null, summary: '@Module() was given an unknown option key or a value of the wrong type',
    message: (a: { name: string; problem: string }) => `@Module() of ${a.name} ${a.problem}.` }),
  ENC_ERR_DECL_MODULE_ENTRY: e({ status: null, summary: 'an entry of a @Module() list is undefined or of the wrong type (often a circular import)',
    message: (a: { name: string; entry: string; got: string; expected?: string; dynamicModule?: string }) => a.dynamicModule !== undefined
      ? `@Module() of ${a.name}: ${a.entry} is a NestJS dynamic module ({ module: ${a.dynamicModule}, ... }, what forRoot()/register() return); ` +
        'Enclave has none: the module tree is static. Provide the configured service as a factory provider ({ provide, useFactory, inject }) ' +
        'in this module or a lift()ed one, or list a module class that a function declares for its configuration (docs/migrating-from-nestjs.md, "Coming from NestJS").'
      : a.expected === undefined
      ? `@Module() of ${a.name}: ${a.entry} is ${a.got}. This is usually a circular import: the class is used before its file finished loading. Move the classes so imports form a tree.`
      : `@Module() of ${a.name}: ${a.entry} is ${a.got}; expected ${a.expected}.` }),
  ENC_ERR_DECL_PROVIDER_SCOPE: e({ status: null, summary: "a provider entry's scope is not 'singleton', 'request' or 'transient' (or sits on a useValue/useExisting entry)",
    message: (a: { name: string; entry: string; got: string; hint: string; misplaced?: boolean }) => a.misplaced === true
      ? `@Module() of ${a.name}: ${a.entry} has scope ${a.got} on an entry that has no lifetime of its own. ${a.hint}`
      : `@Module() of ${a.name}: ${a.entry} has scope ${a.got}, which Enclave does not know. ${a.hint}` }),
  ENC_ERR_DECL_TARGET: e({ status: null, summary: 'a decorator is used on the wrong kind of member (a property, a constructor parameter) or with the wrong argument for it (an undefined one: often a circular import)',
    message: (a: { where: string; case: 'constructor-param' | 'route-on-property' | 'error-handler-on-property' | 'hook-on-property' | 'not-found-handler-on-property' }
      | { case: 'route-method-arg'; arg: string; method: string } | { case: 'route-class-arg'; arg: string; className: string }
      | { where: string; case: 'error-handler-responses'; got: string } | { where: string; case: 'error-handler-content-type'; got: string } | { where: string; case: 'route-hook-arg'; got: string }
      | { case: 'param-factory'; got: string } | { where: string; case: 'requires-arg'; got: string }) => {
      switch (a.case) {
        case 'constructor-param': return `${a.where}: parameter decorators go on route handler parameters; constructor parameters are injected from the module's providers.`
        case 'route-on-property': return `${a.where}: a route decorator goes on a method, not on a property or accessor.`
        case 'error-handler-on-property': return `${a.where}: @ErrorHandler() goes on a method.`
        case 'hook-on-property': return `${a.where}: @Hook() goes on a method.`
        case 'not-found-handler-on-property': return `${a.where}: @NotFoundHandler() goes on a method.`
        case 'route-hook-arg': return `${a.where}: takes one or more hook functions (request, reply) => ... or guard classes, got ${a.got}.` +
          (a.got === 'undefined' ? ' A class or function that is undefined at decoration time is usually a circular import between files ' +
            '(it is used before its file finished loading), or a type-only import. Move the classes so imports form a tree.' : '')
        case 'param-factory': return `createParamDecorator() takes a factory (data, request, reply) => value, got ${a.got}.` +
          (a.got === 'undefined' ? ' A function that is undefined at this point is usually a circular import between files.' : '')
        case 'requires-arg': return `${a.where}: takes plugins lifted with a name, lift(plugin, { name, provides }), got ${a.got}. ` +
          'Boot finds a required plugin by that name in the controller\'s module and its ancestors.' +
          (a.got === 'undefined' ? ' A plugin that is undefined at decoration time is usually a circular import between files.' : '')
        case 'error-handler-responses': return `${a.where}: responses maps a status (422, '4xx' or 'default') to a JSON Schema, got ${a.got}.`
        case 'error-handler-content-type': return `${a.where}: contentType is the media type the handler answers in, as 'type/subtype' without parameters ('application/problem+json'), got ${a.got}.`
        case 'route-method-arg': return `@Route(${a.arg}) on method ${a.method}: on a method @Route takes { method, path, ...options }; use @Get('/path') and friends for the short form.`
        case 'route-class-arg': return `@Route(${a.arg}) on class ${a.className}: on a class @Route takes an optional path prefix string ('/books' or 'books'); route options go on the methods.`
      }
    } }),
  ENC_ERR_DECL_ROUTE_OPTIONS: e({ status: null, summary: 'a route decorator was given a bad method or path, or options that are not an object; @HttpCode() a value that is not an HTTP status; a parameter decorator a schema that is not an object',
    message: (a: { where: string; case: 'property-name' } | { where: string; case: 'path' | 'options' | 'status'; got: string }
      | { where: string; case: 'method'; got: string; known: readonly string[] } | { where: string; case: 'param-schema'; got: string }) => {
      switch (a.case) {
        case 'property-name': return `${a.where}: the property name must be a non-empty string.`
        case 'param-schema': return `${a.where}: the second argument is the property's JSON Schema, an object ({ type: 'integer', default: 1 }), got ${a.got}; the third, if any, is { optional: true }.`
        case 'path': return `${a.where}: the path must be a string ('/:id' or ':id'; empty for the controller's prefix), got ${a.got}.`
        case 'method': return `${a.where}: unknown HTTP method ${a.got}. Use one of ${a.known.join(', ')}.`
        case 'options': return `${a.where}: route options must be an object, got ${a.got}.`
        case 'status': return `${a.where}: takes a final HTTP status, an integer from 200 to 599, got ${a.got}.`
      }
    } }),
  ENC_ERR_DECL_SCHEMA_ID: e({ status: null, summary: '@Schema() was given a schema without a string $id',
    message: (a: { className: string; suggestion: string }) => `@Schema() on ${a.className}: a shared schema needs a non-empty string $id ` +
      `(routes reference it as { $ref: 'id#' }). Add one, e.g. { $id: '${a.suggestion}', ... }.` }),
  ENC_ERR_DECL_DECORATOR_DUPLICATE: e({ status: null, summary: 'the same request/reply decorator name is declared twice on one module class',
    message: (a: { kind: string; name: string; className: string }) => `@${a.kind}('${a.name}') appears twice on ${a.className}. ` +
      'Keep one; a module declares each name once (a descendant module may not redeclare it either).' }),
  ENC_ERR_DECL_DECORATOR_NAME: e({ status: null, summary: '@DecorateRequest()/@DecorateReply() was given an empty or non-string name',
    message: (a: { kind: string; className: string }) => `@${a.kind}() on ${a.className}: the name must be a non-empty string.` }),
  ENC_ERR_DECL_HOOK_NAME: e({ status: null, summary: '@Hook() was given an unknown hook name',
    message: (a: { where: string; known: readonly string[] }) => `${a.where}: unknown hook. Use one of ${a.known.join(', ')}.` }),
  ENC_ERR_DECL_ERROR_HANDLER_DUPLICATE: e({ status: null, summary: 'a module class has more than one @ErrorHandler() method',
    message: (a: { where: string; className: string; existing: string }) => `${a.where}: ${a.className} already has ` +
      `@ErrorHandler() on '${a.existing}'. A context has one error handler: merge the two methods.` }),
  ENC_ERR_DECL_NOT_FOUND_HANDLER_DUPLICATE: e({ status: null, summary: 'a module class has more than one @NotFoundHandler() method',
    message: (a: { where: string; className: string; existing: string }) => `${a.where}: ${a.className} already has ` +
      `@NotFoundHandler() on '${a.existing}'. A context has one not-found handler: merge the two methods.` }),
  ENC_ERR_DECL_USE_PLUGIN: e({ status: null, summary: 'usePlugin() was given a non-function plugin or useFactory, or its entry was registered outside a module',
    message: (a: { case: 'arguments'; plugin: string; got: string } | { case: 'registered'; plugin: string }) => a.case === 'arguments'
      ? `usePlugin(${a.plugin}): takes (plugin, { inject?: [tokens], useFactory: (...deps) => options }), got ${a.got}.`
      : `usePlugin(${a.plugin}) was registered directly; it is an entry of @Module({ plugins }), where its options are built from the module's providers at boot.` }),
  ENC_ERR_DECL_STANDARD_DECORATORS: e({ status: null, summary: 'a decorator ran as a standard ECMAScript (TC39) decorator: the file was compiled without "experimentalDecorators": true in tsconfig.json, which Enclave\'s decorators need',
    message: (a: { decorator: string; kind: string; name: string }) => `${a.decorator} on the ${a.kind} ${a.name} ran as a standard ECMAScript decorator: this file was compiled without "experimentalDecorators". ` +
      'Enclave\'s decorators are TypeScript\'s legacy ("experimental") decorators, which also record the parameter types that injection reads. ' +
      'Add "experimentalDecorators": true and "emitDecoratorMetadata": true to compilerOptions in tsconfig.json (the one your build or runner reads: tsc, tsx, ts-node, swc, esbuild), then rebuild ' +
      '(docs/installation.md). tsc reports the same lines as TS1241 ("The runtime will invoke the decorator with 2 arguments") and TS1206 ("Decorators are not valid here").' }),
  ENC_ERR_DECL_STATIC_MEMBER: e({ status: null, summary: 'a method decorator was put on a static method',
    message: (a: { where: string; member: 'param' | 'route' | 'error-handler' | 'not-found-handler' | 'hook' }) => `${a.where}: ${staticWhat[a.member]}; remove 'static'.` }),
  ENC_ERR_DECL_PARAM_DUPLICATE: e({ status: null, summary: 'one handler parameter carries two parameter decorators',
    message: (a: { where: string }) => `${a.where}: the parameter already has a parameter decorator; keep one.` }),
  ENC_ERR_DECL_SCHEMA_CLASS: e({ status: null, summary: 'SchemaClass() was given something other than a JSON Schema object, or partialSchema() something other than an object schema with properties (or its class)',
    message: (a: { got: string; case?: 'partial' }) => a.case === 'partial'
      ? `partialSchema() takes a schema class or an object schema with properties, got ${a.got}. ` +
        'Write class UpdateBook extends SchemaClass(partialSchema(CreateBook)) {}.'
      : `SchemaClass() takes a JSON Schema object, got ${a.got}. ` +
        "Write class Note extends SchemaClass({ type: 'object', properties: { ... } }) {}." }),
  ENC_ERR_DECL_SCHEMA_CONFLICT: e({ status: null, summary: 'a route gives a schema in its options for a part whose handler parameter is a schema class, and the two differ',
    message: (a: { where: string; index: number; className: string; part: string; optionKey: string }) => `${a.where}: parameter ${a.index} is a ${a.className}, which gives the ${a.part} its schema, ` +
      `but the route options also give schema.${a.optionKey} and it is not ${a.className}. ` +
      `Remove schema.${a.part} from the options (the parameter type declares it), or give ${a.className} there.` }),
  ENC_ERR_DECL_PARAM_TYPE: e({ status: null, summary: "a named parameter of the query, params or headers is typed number or boolean, but that part has no schema: it would be a string",
    message: (a: { where: string; index: number; decorator: string; type: string; part: string; besideClass: boolean }) => `${a.where}: parameter ${a.index} is ${a.decorator} typed ${a.type}, ` +
      `but the ${a.part} has no schema, so it would be a string${a.besideClass ? ' (a schema class of another part does not type it)' : ' (nothing coerces a query, path or header value without one)'}. ` +
      `Give the route a ${a.part} schema that types it (a schema class parameter of that part, or schema.${a.part} in the options), or type it string.` }),
  ENC_ERR_DECL_PARAM_TYPES_UNREAD: e({ status: null, summary: 'a whole-part parameter (@Body(), @Query(), @Params(), @Headers()) has no schema for its part and the method carries no type metadata (esbuild, tsx), so a schema class typing it could not be read: the part would go unvalidated',
    message: (a: { where: string; index: number; decorator: string; part: string; param: string | null }) => `${a.where}: parameter ${a.index}` +
      `${a.param === null ? '' : ` (${a.param})`} is ${a.decorator} and the route gives the ${a.part} no schema. The method carries no parameter types ` +
      "(design:paramtypes): the build tool emits no decorator metadata (esbuild and the tools built on it: tsx, tsup, vitest on vite 7 or older; " +
      'or tsc without emitDecoratorMetadata), so a schema class typing the parameter cannot be read and the ' +
      `${a.part} would be accepted unvalidated. Give the schema in the route options (schema: { ${a.part}: TheClass }), or ` +
      `schema: { ${a.part}: {} } to take any ${a.part} on purpose; or compile with tsc or swc (enclave's docs/build-tools.md).` }),
  ENC_ERR_DECL_PARAM_PLAIN_CLASS: e({ status: null, summary: 'a whole-part parameter (@Body(), @Query(), @Params(), @Headers()) is typed with a class that is not a SchemaClass (a NestJS DTO, a stream or another class of its own), and the route gives that part no schema: nothing would validate it, and the handler would get the parsed part, not an instance of that class',
    message: (a: { where: string; index: number; decorator: string; part: string; className: string }) => {
      const typed = a.className === '' ? 'an anonymous class' : a.className
      return `${a.where}: parameter ${a.index} is ${a.decorator} typed ${typed}, which is not a SchemaClass, and the route gives the ${a.part} no schema: ` +
        `the ${a.part} would be accepted unvalidated, and the handler gets the parsed ${a.part}, never an instance of ${typed} ` +
        `(nothing reads a class's own decorators, such as class-validator's: there is no ValidationPipe). ` +
        `To take the ${a.part} as it comes (a stream or a Buffer from a content-type parser, any JSON), say so: schema: { ${a.part}: {} }. ` +
        'To validate it, ' + (a.className === ''
        ? 'type the parameter with a named class that extends SchemaClass({ ... })'
        : `declare ${a.className} as class ${a.className} extends SchemaClass({ type: 'object', properties: { ... } }) {}`) +
        ` (validated and typed by one declaration: enclave's docs/migrating-from-nestjs.md), or give the schema in the route options and type the parameter with an interface.`
    } }),
  ENC_ERR_DECL_PARAM_CLASS_MEMBERS: e({ status: null, summary: 'a schema class given as the type of a whole-part parameter (@Body(), @Query(), @Params(), @Headers()) declares methods, accessors or instance fields with an initializer, which the validated plain object the handler receives does not have',
    message: (a: { where: string; index: number; decorator: string; className: string; members: readonly string[]; valueFields: boolean }) => `${a.where}: parameter ${a.index} is ${a.decorator} typed ${a.className}, ` +
      `which declares ${a.members.map((m) => `${m}`).join(', ')}. The handler receives the validated plain object (there is no transform step, as NestJS's ValidationPipe({ transform: true }) has), ` +
      `so its type would promise members that are undefined at run time. Move them to a function or a service that takes the data ` +
      `(${a.members[0].replace(/^get /, '').replace(/\(\)$/, '').replace(/ = .*$/, '')}(${a.className.charAt(0).toLowerCase()}${a.className.slice(1)}: ${a.className})), ` +
      `or build an instance in the handler (new ${a.className}(data) copies the data onto one).` +
      (a.valueFields
        ? ' A field\'s initializer runs only in a constructor: for a value the data may omit, give that property a `default` in the schema (validation fills it in) instead.'
        : '') }),
  ENC_ERR_DECL_HEADER_NAME: e({ status: null, summary: 'a schema class given as the type of a whole @Headers() parameter names a header with capital letters (headers arrive lowercased)',
    message: (a: { where: string; index: number; className: string; name: string }) => `${a.where}: parameter ${a.index} is @Headers() typed ${a.className}, ` +
      `whose schema names the header '${a.name}'. Header names arrive lowercased, and validation matches them so (Fastify's rule), ` +
      `so the parameter would hold '${a.name.toLowerCase()}' while its type promises '${a.name}', which is always undefined. ` +
      `Write '${a.name.toLowerCase()}' in ${a.className}'s schema.` }),
}

const staticWhat = {
  param: 'route handlers are instance methods',
  route: 'routes are instance methods (called with `this` = the controller)',
  'error-handler': 'the error handler is an instance method of the module',
  'not-found-handler': 'the not-found handler is an instance method of the module',
  hook: 'hooks are instance methods of the module',
} as const

export type DecoratorErrorCode = keyof typeof decoratorErrors
type ArgsOf<C extends DecoratorErrorCode> = Parameters<(typeof decoratorErrors)[C]['message']>[0]

/** Status and summary per code (the columns of docs/errors.md's table). */
export const decoratorErrorCodes = Object.fromEntries(Object.entries(decoratorErrors)
  .map(([code, { status, summary }]) => [code, { status, summary }])) as { readonly [C in DecoratorErrorCode]: { readonly status: null; readonly summary: string } }

/** The message of a code from its template: the only way this layer words an error. */
export function declarationMessage<C extends DecoratorErrorCode>(code: C, args: ArgsOf<C>): string {
  return (decoratorErrors[code].message as (a: ArgsOf<C>) => string)(args)
}
