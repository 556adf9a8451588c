import { codeSummaries, defineError as e, errorFactory } from '../runtime/internal'

/** How a test boots one feature module with what its real parent provides (NestJS's Test.createTestingModule habit). */
export function testHostExample(token: string, root: string): string {
  return `@Module({ providers: [{ provide: ${token}, useValue: stub }], plugins: [${root}] }) class TestHost {}, then createApp(TestHost).`
}

/** A boot message names a few candidates, not an app's hundreds of tokens. */
const shownCandidates = 10
const listed = (names: readonly string[]): string => names.length <= shownCandidates ? names.join(', ')
  : `${names.slice(0, shownCandidates).join(', ')} and ${names.length - shownCandidates} more`

/**
 * Errors of the module layer, each declared once (status, docs/errors.md summary, message template):
 * raised by createApp() before the server starts serving (`status` null), except a guard
 * class's refusal, which answers a request.
 */
export const moduleErrors = {
  ENC_ERR_MODULE_NOT_A_MODULE: e({ status: null, summary: 'createApp() or a plugins list was given a class without @Module()',
    message: (a: { where: string; name: string; isController: boolean }) => `${a.where}: ${a.name} is not a module. ` +
      `Decorate it with @Module({ ... })${a.isController ? ', or, since it is a controller, list it in a module\'s controllers' : ''}.` }),
  ENC_ERR_MODULE_ENTRY_OPTIONS: e({ status: null, summary: 'a module was listed as [Module, options]; modules take their options in @Module()',
    message: (a: { path: string; index: number; name: string }) => `${a.path}: plugins[${a.index}] lists module ${a.name} with options. ` +
      `Modules take their options in @Module() (e.g. prefix); list it as ${a.name} or lift(${a.name}). ` +
      'For configuration known only at boot, provide a config token and inject it (docs/controllers.md, "Configuration"), and build plugin options from it with usePlugin().' }),
  ENC_ERR_MODULE_CYCLE: e({ status: null, summary: 'a module lists itself, directly or through its children',
    message: (a: { path: string; cycle: string }) => `Module cycle at ${a.path}: ${a.cycle}. A module cannot contain itself; ` +
      'remove the module from the plugins list that closes the loop, or move what both need into a common parent.' }),
  ENC_ERR_MODULE_DUPLICATE_ENTRY: e({ status: null, summary: 'one plugins list names the same module twice',
    message: (a: { path: string; name: string; index: number }) => `${a.path} lists ${a.name} twice in plugins (entry ${a.index}). ` +
      'Remove one; to mount a module twice, list it in two different modules.' }),
  ENC_ERR_MODULE_DUPLICATE_CONTROLLER: e({ status: null, summary: 'one module lists the same controller twice',
    message: (a: { path: string; name: string }) => `${a.path} lists controller ${a.name} twice. Remove one: its routes would be declared twice.` }),
  ENC_ERR_MODULE_NOT_A_CONTROLLER: e({ status: null, summary: 'a controllers entry has no class-level @Route()',
    message: (a: { path: string; name: string; routes: number }) => `${a.path} lists ${a.name} as a controller, but the class has no @Route()` +
      `${a.routes > 0 ? ` (it has ${a.routes} route method(s))` : ''}. Add @Route() (or @Route('/prefix')) to the class.` }),
  ENC_ERR_MODULE_MISPLACED_DECORATOR: e({ status: null, summary: '@DecorateRequest/@DecorateReply/@Hook/@ErrorHandler on a controller instead of a module',
    message: (a: { name: string; path: string; decorators: readonly string[] }) => `Controller ${a.name} in ${a.path} carries ${a.decorators.join(', ')}, ` +
      "which belong on a module class: they configure the module's context. Move them to the module." }),
  ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED: e({ status: null, summary: 'a route hook decorator (@OnRequest, @PreHandler, @OnSend, ...) on a module method, on a controller method that declares no route, or on a module with no controller routes in it or below; a hook class without handle(); @HttpCode or a routeMetadata() decorator on a method that declares no route, or a routeMetadata() decorator on a module class',
    message: (a: { case: 'module' | 'not-a-route' | 'no-handle' | 'module-no-routes'; path: string; name: string; canActivate?: boolean } | { case: 'http-code-not-a-route'; path: string; name: string }
      | { case: 'metadata-not-a-route' | 'metadata-module'; path: string; name: string; keys: readonly string[] }) => a.case === 'metadata-not-a-route'
      ? `${a.name} (listed in ${a.path}) carries ${a.keys.map((k) => `routeMetadata('${k}')`).join(', ')} but declares no route, so no guard or hook would read it. Put it on a route method (@Get, @Post, ...) or on the controller class.`
      : a.case === 'metadata-module'
      ? `Module ${a.name} (${a.path}) carries ${a.keys.map((k) => `routeMetadata('${k}')`).join(', ')}, which gives a controller's routes their metadata; on a module no route would carry it. Put it on the controller classes or their route methods.`
      : a.case === 'http-code-not-a-route'
      ? `${a.name} (listed in ${a.path}) carries @HttpCode but declares no route, so no answer would use its status. Put it on a route method (@Get, @Delete, ...).`
      : a.case === 'no-handle'
      ? `Hook class ${a.name} in ${a.path} has no handle(request, reply) method: a class given to @OnRequest/@PreHandler/@OnSend/... is a provider whose handle() is the hook.` +
        (a.canActivate === true ? ' It has canActivate() (NestJS\'s CanActivate): rename it handle(request, reply). It is called with the request itself, not an ExecutionContext' +
          ' (what context.switchToHttp().getRequest() gave), and returning false (or a promise of false) denies with 403, as canActivate() does.' : '')
      : a.case === 'module-no-routes'
      ? `Module ${a.name} (${a.path}) carries route hooks (@OnRequest/@PreHandler/@OnSend/...), but neither it nor its descendants list a controller, so they would apply to no route ` +
        "(they go on controller routes only, not on routes a plugin function declares). List the controllers in this module or below, or use a module method with @Hook('onRequest') for every request of the context."
      : a.case === 'module'
      ? `Module ${a.name} (${a.path}) carries a route hook decorator (@OnRequest/@PreHandler/@OnSend/...) on a method, but a module method is not a route. ` +
        'Put the decorator on the module class (every controller route of the module and its descendants), or on a controller or its route methods.'
      : `${a.name} (listed in ${a.path}) carries a route hook decorator (@OnRequest/@PreHandler/@OnSend/...) but declares no route, so it would apply to nothing. ` +
        'Put the decorator on a route method (@Get, @Post, ...) or on the controller class.' }),
  ENC_ERR_MODULE_INTERCEPTOR_INVALID: e({ status: null, summary: '@UseInterceptors() names something that is not a class with intercept(context, next), or sits on a method that declares no route, on a module method, or on a module with no controller routes in it or below',
    message: (a: { case: 'not-a-class' | 'no-intercept'; path: string; where: string; got: string } | { case: 'not-a-route' | 'module-method' | 'module-no-routes'; path: string; where: string }) => a.case === 'not-a-class'
      ? `@UseInterceptors() on ${a.where} (${a.path}) names ${a.got}, which is not an interceptor class. Give it classes whose instances have intercept(context, next), listed as providers of the module` +
        (a.got === 'undefined' ? '; a class that is undefined at decoration time is usually a circular import between files, or a type-only import.' : '.')
      : a.case === 'no-intercept'
      ? `@UseInterceptors() on ${a.where} (${a.path}) names class ${a.got}, which has no intercept(context, next) method. Add it: it gets the context and next(), and what it returns is the route's answer.`
      : a.case === 'module-no-routes'
      ? `@UseInterceptors() on ${a.where} (${a.path}): neither it nor its descendants list a controller, so it would wrap no route (routes a plugin function declares are not wrapped). List the controllers in this module or below, or remove it.`
      : a.case === 'module-method'
      ? `@UseInterceptors() on ${a.where} (module ${a.path}): a module method is not a route. Put it on the module class (every controller route of the module and below), a controller class or a route method.`
      : `@UseInterceptors() on ${a.where} (listed in ${a.path}), which declares no route, so nothing would call it. Put it on a route method (@Get, @Post, ...) or on the controller class.` }),
  ENC_ERR_MODULE_NEST_MIDDLEWARE: e({ status: null, summary: "a module class has NestJS's configure(consumer) (NestModule middleware), which Enclave never calls: its middleware would never run",
    message: (a: { path: string; name: string }) => `Module ${a.name} (${a.path}) has configure(consumer), NestJS's NestModule middleware registration, which Enclave never calls: ` +
      'what it applies (consumer.apply(...).forRoutes(...)) would never run. Move each middleware\'s work to a hook: a module method ' +
      "@Hook('onRequest') async requestId(request, reply) { ... } runs on every request of the module and its descendants, 404s included (forRoutes('*')); " +
      'a hook class in @OnRequest(Class) on a controller or route method runs on those routes only (forRoutes(Controller)); ' +
      'Connect or Express middleware runs as it is through @fastify/middie (docs/migrating-from-nestjs.md). If configure() is your own method, not NestJS\'s, rename it.' }),
  ENC_ERR_MODULE_BODY_NOT_PARSED: e({ status: null, summary: "@Body() (or @Body('name', schema)) on a route method whose routes are all GET or HEAD: their bodies are never parsed (as in Fastify 3), so it would be null on every request (with a schema, every request would be a 400)",
    message: (a: { where: string; params: readonly string[] }) => `${a.where}: ${a.params.join(', ')} reads the request body, but a GET or HEAD request's body is never parsed, so it would be null on every request (with a schema, every request would be refused). ` +
      'Read the values from the query (@Query()) or the path (@Params()), or declare the route with @Post/@Put/@Patch.' }),
  ENC_ERR_MODULE_PARAM_SCHEMA_CONFLICT: e({ status: null, summary: "a parameter's schema (@Query('page', { type: 'integer' }), @Body('title', {...})) declares a property the route's part schema (or another parameter) declares differently, or that part's schema cannot take properties (a $ref, a class, a combinator, another type)",
    message: (a: { case: 'route-schema' | 'two-params'; where: string; part: string; key: string; first: string; second: string } | { case: 'not-mergeable'; where: string; part: string; params: readonly string[] }) => a.case === 'not-mergeable'
      ? `${a.where}: ${a.params.join(', ')} add properties to the ${a.part} schema, but the route's schema.${a.part} is not a plain object schema written inline (a $ref, a schema class, TypeBox, a combinator or a type other than object), so it cannot take them. ` +
        `Declare the properties in that schema and drop the schemas from the parameter decorators, or drop schema.${a.part} from the route options.`
      : `${a.where}: ${a.part} property '${a.key}' is declared twice, differently: ${a.case === 'route-schema' ? `the route's schema.${a.part} says` : 'another parameter says'} ${a.first}, and ${a.second}. ` +
        'Declare it once (remove one of them), or make both the same.' }),
  ENC_ERR_MODULE_PLUGIN_REQUIRED: e({ status: null, summary: 'a controller\'s @Requires(plugin) names a plugin that neither its module nor any ancestor module registers',
    message: (a: { controller: string; path: string; module: string; plugin: string }) =>
      `${a.controller} (module ${a.path}) requires plugin '${a.plugin}' (@Requires), but neither ${a.module} nor its ancestors register it: ` +
      `its routes would read the plugin's decorations as undefined. Add the plugin to the plugins of ${a.module} (plugins: [plugin] or usePlugin(plugin, { ... })) or of an ancestor module.` }),
  ENC_ERR_MODULE_PARAM_MISPLACED: e({ status: null, summary: 'a parameter decorator (@Body, @Params, a createParamDecorator() one, ...) on a controller method that declares no route, or on a module class method',
    message: (a: { case: 'not-a-route' | 'module'; path: string; name: string; decorators: readonly string[] }) => a.case === 'module'
      ? `${a.name} (module ${a.path}) has ${a.decorators.join(', ')} on its parameters, but a module method is not a route handler, so nothing would fill them. ` +
        'Parameter decorators go on the route methods (@Get, @Post, ...) of a controller.'
      : `${a.name} (listed in ${a.path}) has ${a.decorators.join(', ')} on its parameters but declares no route, so nothing would fill them ` +
        '(a custom decorator\'s factory would never run). Add a route decorator (@Get, @Post, ...) to the method, or remove the parameter decorators.' }),
  ENC_ERR_MODULE_NOT_FOUND_NO_PREFIX: e({ status: null, summary: '@NotFoundHandler() on a child module without a prefix of its own (it would answer its parent\'s unknown URLs)',
    message: (a: { path: string; method: string; scopeOwner: string; lifted: boolean }) => `@NotFoundHandler() on ${a.method} (${a.path}): ` +
      `${a.lifted ? `the module is lifted into ${a.scopeOwner}, which` : 'the module'} has no prefix of its own, so its handler would also answer the unknown URLs of its parent. ` +
      'Unknown URLs are attributed to a module by prefix: give the module a prefix (@Module({ prefix: \'/admin\' })), or move the handler to the root module to answer every unknown URL.' }),
  ENC_ERR_MODULE_PLUGIN_OPTIONS: e({ status: null, summary: 'the useFactory of a usePlugin() entry threw or rejected, its promise did not settle within pluginTimeout, or it gave something other than an options object',
    message: (a: { path: string; plugin: string; problem: string }) => `${a.path}: the options of ${a.plugin} could not be built: ${a.problem}. ` +
      'useFactory runs once at boot with the injected providers and returns (or resolves to) the plugin\'s options object; ' +
      'createApp() awaits a promise for up to pluginTimeout (raise that option, or give the async work its own timeout).' }),
  ENC_ERR_MODULE_PLUGIN_FAILED: e({ status: null, summary: "a plugin listed in a module's plugins threw or rejected while loading (the plugin's own error is the cause)",
    message: (a: { path: string; entry: string; plugin: string; reason: string; overridden: readonly string[] }) => `${a.path}: ${a.entry}, plugin ${a.plugin}, failed while loading: ${a.reason}. ` +
      (a.overridden.length > 0
        ? `Its options were built from ${a.overridden.join(', ')}, which createApp({ overrides }) replaced: a stub given to a plugin must have the members the plugin calls on it ` +
          'while loading, as the real one does. Give the stub those members, override with a real client, or boot a module that does not list the plugin.'
        : 'Check the options this entry gives the plugin and what the plugin needs in the scope (its dependencies, decorators); the plugin\'s own error is the cause.') }),
  ENC_ERR_MODULE_UNLISTED_CONTROLLER: e({ status: null, summary: 'a module or provider class the module tree reaches has route methods but no @Route() (so no module can list it as a controller), or is a controller listed only in providers',
    message: (a: { lines: readonly string[] }) => 'These classes have route methods (@Get, @Route, ...) ' +
      `that no module serves (no class-level @Route(), or not listed in any module's controllers), so their routes would not exist:\n${a.lines.join('\n')}\n` +
      'Fix: add @Route() to the class and list it in the controllers of the module that should serve it ' +
      '(a base class of a listed controller counts as listed).' }),
  ENC_ERR_MODULE_NOT_A_SCHEMA: e({ status: null, summary: 'a schemas entry is a class without @Schema()',
    message: (a: { path: string; index: number; name: string; schemaClassWithoutId?: boolean }) => a.schemaClassWithoutId === true
      ? `${a.path}: schemas[${a.index}] is schema class ${a.name}, which has no $id. ` +
        `Add one to its schema (e.g. $id: '${a.name.charAt(0).toLowerCase()}${a.name.slice(1)}') to share it, or leave it out of schemas: ` +
        'a schema class without $id is inlined where it is used.'
      : `${a.path}: schemas[${a.index}] is class ${a.name}, which has no @Schema(). ` +
        "Decorate it with @Schema({ $id: '...', ... }) or list the schema object itself." }),
  ENC_ERR_MODULE_DUPLICATE_PROVIDER: e({ status: null, summary: 'one module (or a module and a module lifted into it) provides the same token twice',
    message: (a: { token: string; first: string; second: string; lifted: boolean }) => `${a.token} is provided twice in one container: by ` +
      `${a.first} and by ${a.second}${a.lifted ? ' (a lifted module provides into its parent)' : ''}. Keep one.` }),
  ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE: e({ status: null, summary: 'a constructor dependency is not provided by the module or its ancestors',
    message: (a: { subject: string; token: string; where: string; hint: string } | { resolve: true; caller: 'resolveProvider' | 't.get' | 'moduleRef.get'; token: string; module: string }) => 'resolve' in a
      ? (a.caller === 'moduleRef.get'
        ? `moduleRef.get(${a.token}): no provider of ${a.token} is visible from ${a.module}. Pass { strict: false } to take it from whichever module provides it.`
        : `${a.caller === 't.get' ? 't.get(' : 'resolveProvider(app, '}${a.token}): no provider of ${a.token} is visible from ${a.module}. ` +
        `Pass the module that provides it (or a descendant of it) as the ${a.caller === 't.get' ? `second argument: t.get(${a.token}, Module)` : 'third argument'}.`)
      : `${a.subject} ${a.token} (${a.where}), which is not visible there. ${a.hint}` }),
  ENC_ERR_MODULE_DEPENDENCY_UNTYPED: e({ status: null, summary: 'a constructor or factory dependency has no usable runtime token (interface, primitive, missing metadata, a useFactory parameter without its inject entry)',
    message: (a: { case: 'no-metadata'; subject: string; index: number; param: string | null; decorated: boolean } | { case: 'not-injectable'; subject: string; ownCopy: string } | { case: 'no-token'; subject: string; where: string; type: string; candidates?: readonly string[] }
      | { case: 'factory-arity'; subject: string; params: readonly (string | null)[]; injected: number }) => {
      switch (a.case) {
        case 'factory-arity': {
          const missing = a.params.slice(a.injected).map((p, i) => p ?? `parameter ${a.injected + i}`)
          return `${a.subject} takes ${a.params.length} parameter${a.params.length === 1 ? '' : 's'} but its inject list names ${a.injected} token${a.injected === 1 ? '' : 's'}, ` +
            `so ${missing.join(', ')} would be undefined: a factory's parameters are filled from inject, in order (its parameter types are not read). ` +
            `List a token for each: inject: [${a.params.map((p) => (p === null ? 'Token' : `<token of ${p}>`)).join(', ')}], or give an unused parameter a default.`
        }
        case 'no-metadata': {
          const where = `constructor parameter ${a.index}${a.param === null ? '' : ` (${a.param})`}`
          const param = a.param ?? 'name'
          const fix = `Name its token on the parameter, @inject(TheClass) ${param}: TheClass (inject from 'enclave'), or compile with tsc ` +
            '(emitDecoratorMetadata) or swc (jsc.transform.decoratorMetadata; for vitest, unplugin-swc). ' +
            "Each build tool's setup: enclave's docs/build-tools.md."
          return a.decorated
            ? `${a.subject}: ${where} has no injection token. The class is decorated but carries no constructor parameter types ` +
              '(design:paramtypes): the build tool that compiled it does not emit decorator metadata (esbuild and the tools built on it: ' +
              `tsx, tsup, vitest on vite 7 or older). ${fix}`
            : `${a.subject} has constructor parameters but no type metadata: ${where} has no injection token. Decorate the class with ` +
              "@injectable() (import it from 'enclave'; controllers and modules already are): TypeScript emits the types only for a " +
              `decorated class, with emitDecoratorMetadata. If your build tool emits no decorator metadata (esbuild, tsx): ${fix}`
        }
        case 'not-injectable': return `${a.subject} has constructor parameters but is not @injectable(), so its dependencies are unknown. ` +
          `Decorate the class with injectable() from 'enclave'. (If it is decorated, a tsyringe copy other than ${a.ownCopy} did it: keep one tsyringe per app.)`
        case 'no-token': return `${a.subject} ${a.where}, whose type ${a.type}, so it has no injection token. ` +
          'Use @inject(token) on the parameter and provide that token, or import the class as a value.' +
          (a.candidates !== undefined && a.candidates.length > 0 ? ` Tokens it can inject that are not classes: ${listed(a.candidates)} (@inject(thatToken) on the parameter).` : '')
      }
    } }),
  ENC_ERR_MODULE_TSYRINGE_COPIES: e({ status: null, summary: "a provider was made @injectable() by a second copy of tsyringe, which Enclave's copy cannot see",
    message: (a: { subject: string; decoratedBy: string; ownCopy: string }) => `${a.subject} was decorated by a second copy of tsyringe (${a.decoratedBy}); ` +
      `Enclave uses ${a.ownCopy}. Each copy keeps its own record of @injectable() classes, so Enclave cannot see this ` +
      "class's constructor parameters. Import injectable, inject and singleton from 'enclave' rather than 'tsyringe', and keep " +
      "one tsyringe per app (it is a peer dependency of enclave): `npm ls tsyringe` should list one version; align the versions " +
      'or run `npm dedupe`, and make linked or file: packages resolve the app\'s copy.' }),
  ENC_ERR_MODULE_PROVIDER_LIFECYCLE: e({ status: null, summary: "a class provider carries a tsyringe lifecycle (@scoped(Lifecycle.ResolutionScoped), ...) that module providers do not have: each is built once per declaring module",
    message: (a: { subject: string; lifecycle: string }) => `${a.subject} is registered with ${a.lifecycle} by tsyringe (@scoped() or @registry()), ` +
      'but Enclave builds each provider once, at boot, in the module that lists it: every request and every consumer would share that one instance. ' +
      'Decorate it with @injectable() instead. For an instance per request (NestJS\'s Scope.REQUEST), declare it @RequestScoped() (or { provide, useClass, scope: \'request\' }); ' +
      'for a plain value per request, @DecorateRequest(name, { factory }) or @fastify/request-context; for a fresh object per consumer (Scope.TRANSIENT), @Transient() (or scope: \'transient\') ' +
      '(docs/migrating-from-nestjs.md, "Coming from NestJS").' }),
  ENC_ERR_MODULE_REQUEST_SCOPE: e({ status: null, summary: "a request-scoped provider (scope: 'request', @RequestScoped(), REQUEST/REPLY, or one that injects those) is needed by something built at boot, carries a boot-only method, injects through delay()/injectAll()/a transform, or is resolved outside a request",
    message: (a: { case: 'built-at-boot'; subject: string; reason: string; kind: 'module' | 'plugin' }
      | { case: 'boot-method'; subject: string; reason: string; methods: readonly string[] }
      | { case: 'injection'; subject: string; index: number }
      | { case: 'resolved'; subject: string; reason: string }
      | { case: 'released'; subject: string }
      | { case: 'outside-scope'; subject: string }) => a.case === 'built-at-boot'
      ? `${a.subject} is built once, at boot, but needs a request-scoped provider: ${a.reason}. ` + (
          a.kind === 'plugin' ? "A plugin's options are built once, at boot: inject the singleton it needs instead, and read per-request values from the request inside the plugin."
          : 'A module class is built once, at boot: inject the request-scoped provider into a controller (it becomes one per request), a guard or an interceptor, or a provider instead.') +
        ' (docs/request-scope.md, "Request-scoped providers")'
      : a.case === 'boot-method'
      ? `${a.subject} is request-scoped (${a.reason}) but has ${a.methods.map((m) => `${m}()`).join(', ')}, which Enclave calls once, on what it builds at boot: on a per-request instance ` +
        'it would never run. Move that work into a singleton provider it injects; a per-request instance is released with its own dispose(end) (docs/request-scope.md, "Request-scoped providers").'
      : a.case === 'injection'
      ? `${a.subject} is request-scoped, and its constructor parameter ${a.index} is injected through delay(), injectAll() or injectWithTransform(), which a per-request build does not support. ` +
        'Inject the token itself (@inject(TOKEN)), or keep the class a singleton.'
      : a.case === 'released'
      ? `${a.subject} was asked for after this request's request-scoped instances were released (the route's handler had settled, or the request ended). ` +
        'Resolve it while the handler runs (docs/request-scope.md, "Request-scoped providers").'
      : a.case === 'outside-scope'
      ? `resolveProvider(request, ${a.subject}) was called in a handler not wrapped in withRequestScope(): nothing would release what it builds (a request-scoped or transient provider) at the end of the request. ` +
        'Declare the route with withRequestScope(handler) (docs/request-scope.md, "Request-scoped providers", the runtime API).'
      : `${a.subject} is request-scoped (${a.reason}): it exists only while a request is served, for the route methods of a controller that injects it. ` +
        'It cannot be resolved at boot or from outside a request (resolveProvider(app, ...), t.get()). In a handler, use resolveProvider(request, ...) inside withRequestScope(); in a test, send a request (app.inject()), or override it with a useValue (docs/testing.md, "Testing").' }),
  ENC_ERR_MODULE_TRANSIENT: e({ status: null, summary: "a transient provider (scope: 'transient', @Transient()) has a factory that returned a promise or a boot-only method, INQUIRER is injected into something that is not transient, or moduleRef.get() asked for a transient provider",
    message: (a: { case: 'async'; subject: string } | { case: 'boot-method'; subject: string; methods: readonly string[] } | { case: 'inquirer'; subject: string } | { case: 'module-ref-get'; subject: string; module: string }) => a.case === 'module-ref-get'
      ? `moduleRef.get(${a.subject}) in ${a.module}: ${a.subject} is transient (a fresh instance per consumer), and get() gives the one instance a token has, as NestJS's get() refuses a transient provider. ` +
        `Use \`await moduleRef.resolve(${a.subject})\` for a fresh instance (kept until close(), so not once per request), inject it in the constructor (one per consumer), or, in a request, \`await resolveProvider(request, ${a.subject})\` (released with the request) (docs/request-scope.md, "Transient providers").`
      : a.case === 'async'
      ? `${a.subject} is transient and its factory returned a promise: a transient value is built while its consumer is, which cannot wait. ` +
        "Make the factory synchronous, or make the provider a singleton (awaited at boot) or scope: 'request' (awaited per request) (docs/request-scope.md, \"Transient providers\")."
      : a.case === 'boot-method'
      ? `${a.subject} is transient but has ${a.methods.map((m) => `${m}()`).join(', ')}, which Enclave calls once, on the providers it lists: ` +
        'on an instance built for each consumer it would never run. Move that work into a singleton provider it injects (docs/request-scope.md, "Transient providers").'
      : `${a.subject} injects INQUIRER, which names the consumer of a transient provider only: declare it @Transient() (or scope: 'transient'), ` +
        'or drop the parameter (docs/request-scope.md, "Transient providers").' }),
  ENC_ERR_MODULE_INSTANTIATION: e({ status: null, summary: 'constructing a provider, module or controller threw',
    message: (a: { what: string; path: string; reason: string }) => `Constructing ${a.what} for ${a.path} failed: ${a.reason}` }),
  ENC_ERR_MODULE_DEPENDENCY_CYCLE: e({ status: null, summary: 'providers inject each other in a circle (A needs B, B needs A)',
    message: (a: { what: string; path: string; cycle: string }) => `Constructing ${a.what} for ${a.path} failed: circular dependency ${a.cycle}. ` +
      'Providers are built once, at boot, each after what it injects, so a circle cannot be built. Move what both need into a third provider ' +
      "they both inject, or have one of them take the other later: NestJS's forwardRef() is tsyringe's delay(), " +
      "`@inject(delay(() => Other)) other: Other` on one side (singletons only: a request-scoped class refuses it)." }),
  ENC_ERR_MODULE_LIFECYCLE_HOOK: e({ status: null, summary: 'an onModuleInit() or onApplicationBootstrap() method threw, rejected or outlived pluginTimeout',
    message: (a: { what: string; path: string; reason: string }) => `${a.what} (${a.path}) failed: ${a.reason}. createApp() did not start the app; ` +
      'what was already built was released as close() releases it.' }),
  ENC_ERR_MODULE_ASYNC_PROVIDER: e({ status: null, summary: "an async factory provider's value was needed before createApp() could await it",
    message: (a: { token: string; path: string }) => `The factory of ${a.token} (${a.path}) returned a promise, and something resolved ${a.token} ` +
      'before createApp() could await it: a class that a factory provider injects depends on it. createApp() awaits async factories ' +
      "before it builds any class, a factory's own inject list first; list the class's async dependencies in that factory's inject, " +
      'or make the class a factory provider too.' }),
  ENC_ERR_MODULE_ASYNC_PROVIDER_TIMEOUT: e({ status: null, summary: "an async factory provider's promise did not settle within pluginTimeout",
    message: (a: { token: string; path: string; ms: number }) => `The factory of ${a.token} (${a.path}) returned a promise that did not settle within ${a.ms} ms ` +
      '(pluginTimeout), so createApp() gave up instead of waiting for ever. Make the factory resolve or reject (a connection attempt with its own timeout), ' +
      'or raise the pluginTimeout option of createApp().' }),
  ENC_ERR_MODULE_APP_OPTIONS: e({ status: null, summary: "createApp() was given an option that is neither its own (overrides, closeOnSignals, health) nor a server option (did you mean ...); a Fastify option Enclave does not offer is createServer()'s ENC_ERR_SERVER_INVALID_OPTION, which says what to do instead",
    message: (a: { root: string; problem: string; own: readonly string[] }) => `createApp(${a.root}, options): ${a.problem}. createApp() takes every createServer() option (docs/options.md) and ${a.own.join(', ')}.` }),
  ENC_ERR_MODULE_SIGNAL_OPTIONS: e({ status: null, summary: 'createApp({ closeOnSignals }) was given an unknown key, signals that is not a list of signal names, or a shutdownDelay that is not a whole number of milliseconds from 0 to 2147483647',
    message: (a: { root: string; problem: string }) => `createApp(${a.root}, { closeOnSignals }): ${a.problem}. ` +
      'closeOnSignals takes true or { signals?: [\'SIGTERM\', ...], shutdownDelay?: milliseconds, exit?: (code) => void } (docs/operations.md, "Shutdown").' }),
  ENC_ERR_MODULE_OVERRIDE_UNKNOWN: e({ status: null, summary: 'createApp({ overrides }) names a token that no module of the tree provides',
    message: (a: { root: string; path: string; token: string; near: readonly string[]; neededBy?: readonly string[] }) => `createApp(${a.root}, { overrides }): no module of ${a.path} provides ` +
      `${a.token}, so there is nothing to replace.` +
      (a.near.length > 0 ? ` Did you mean ${a.near.join(' or ')}?`
        : a.neededBy !== undefined && a.neededBy.length > 0
          ? ` Yet ${a.neededBy.join(', ')} injects it: ${a.root} expects it from a module above it, and is booted here without one. overrides replace providers, they add none. ` +
            `To test ${a.root} alone, boot it under a host module that provides what its parent would: ` +
            testHostExample(a.token, a.root)
          : ' Override a token some module lists in its providers (or Logger, the framework\'s).') }),
  ENC_ERR_MODULE_OVERRIDE_INVALID: e({ status: null, summary: 'an overrides entry is not [Token, { useValue | useClass | useFactory }], or overrides one token twice',
    message: (a: { problem: string }) => `createApp({ overrides }): ${a.problem}` }),
  ENC_ERR_MODULE_NOT_AN_APP: e({ status: null, summary: 'resolveProvider() was given a scope createApp() did not return, or a module class outside the app',
    message: (a: { case: 'not-an-app' } | { case: 'not-a-module'; caller: 'resolveProvider' | 't.get'; token: string; module: string; root: string; modules: readonly string[] }) => a.case === 'not-an-app'
      ? 'resolveProvider() was given a scope that createApp() did not return. Pass the app createApp() resolved with.'
      : `${a.caller === 't.get' ? 't.get(' : 'resolveProvider(app, '}${a.token}, ${a.module}): ${a.module} is not a module of ${a.root}. Pass one of: ${a.modules.join(', ')}.` }),
  ENC_ERR_MODULE_HTTP_CODE_UNCOVERED: e({ status: null, summary: '@HttpCode(status) on a route whose response schemas name other statuses but not that one: its answers would skip the response schema and its filtering',
    message: (a: { where: string; status: number; keys: readonly string[] }) => `@HttpCode(${a.status}) on ${a.where}: the route's response schema names ` +
      `${a.keys.map((k) => `'${k}'`).join(', ')} but nothing that covers ${a.status}, so its answers would be sent unfiltered (response schemas are picked by status). ` +
      `Declare the response under ${a.status} (or '${Math.floor(a.status / 100)}xx'), or remove @HttpCode.` }),
  ENC_ERR_MODULE_SCHEMA_NOT_LISTED: e({ status: null, summary: 'a route uses a schema class with an $id that neither its module nor an ancestor lists in @Module({ schemas })',
    message: (a: { where: string; subject: string; name: string; id: string; module: string }) => `${a.where}: its ${a.subject} is schema class ${a.name} ` +
      `($id '${a.id}'), which is shared by reference, but no module it can see lists it. List ${a.name} in @Module({ schemas }) of ${a.module} or an ancestor ` +
      `(a module sees its own schemas and its ancestors'), or remove the $id to inline it.` }),
  ENC_ERR_MODULE_PARAM_NOT_IN_PATH: e({ status: null, summary: "@Params('name') on a route whose path has no :name parameter (it would always be undefined)",
    message: (a: { where: string; index: number; key: string; detail: string }) => `${a.where}: parameter ${a.index} is @Params('${a.key}'), ` +
      `but ${a.detail}, so it would be undefined on every request. Name one of the path's parameters, or rename the path parameter.` }),
  ENC_ERR_GUARD_DENIED: e({ status: 403, summary: "a guard class's handle() returned false (or a promise resolving to false): the route's handler did not run",
    message: () => 'Forbidden resource' }),
  ENC_ERR_MODULE_HANDLER_PARAMS: e({ status: null, summary: 'a handler decorates some of its parameters but not all, or decorates none (so it is called with (request, reply)) while a parameter is typed as neither (id: string, dto: CreateNoteDto, a provider class) or is a third one',
    message: (a: { where: string; missing: readonly (string | number)[] } | { where: string; index: number; type: string }) => 'missing' in a
      ? `${a.where}: parameter(s) ${a.missing.join(', ')} have no parameter decorator while ` +
        'others do. Decorate every parameter (@Body(), @Query(), @Params(), @Headers(), @Req(), @Reply()), or none to receive (request, reply).'
      : `${a.where}: parameter ${a.index} (typed ${a.type}) has no parameter decorator, and a handler with none is called with (request, reply), ` +
        `so it would receive ${a.index === 0 ? 'the request object' : a.index === 1 ? 'the reply object' : 'undefined'}. Decorate it with what it should be: ` +
        "@Params('id') for a path parameter, @Query('name'), @Body() for the body (a @Schema() class types and validates it), @Headers('name'); " +
        'a provider (a service) is a constructor parameter of the controller, not a handler parameter.' }),
}

export type ModuleErrorCode = keyof typeof moduleErrors
/** Builds a boot error of the module layer from its table entry. */
export const moduleError = errorFactory(moduleErrors)
/** Status and summary per code (the columns of docs/errors.md's table). */
export const moduleErrorCodes = codeSummaries(moduleErrors)
