import 'reflect-metadata'
import type { ControllerMeta, DecoratorMeta, HookMeta, ModuleMeta, ParamMeta, RouteHookMeta, RouteMeta } from './types'
import type { JsonSchema, SharedSchema } from '../runtime/schemas/types'

/**
 * The only file that touches Reflect. Keys are Symbols so no other library's metadata can
 * collide with ours. Everything is stored as own metadata of the class (never inherited
 * implicitly): a subclass of a module is not itself a module unless it says so.
 */
const kModule = Symbol('enclave.module')
const kController = Symbol('enclave.controller')
const kRoutes = Symbol('enclave.routes')
const kParams = Symbol('enclave.params')
const kSchema = Symbol('enclave.schema')
const kRequestDecorators = Symbol('enclave.requestDecorators')
const kReplyDecorators = Symbol('enclave.replyDecorators')
const kHooks = Symbol('enclave.hooks')
const kErrorHandler = Symbol('enclave.errorHandler')
const kErrorResponses = Symbol('enclave.errorResponses')
const kErrorContentType = Symbol('enclave.errorContentType')
const kClassRouteHooks = Symbol('enclave.classRouteHooks')
const kMethodRouteHooks = Symbol('enclave.methodRouteHooks')
const kNotFoundHandler = Symbol('enclave.notFoundHandler')
const kHttpCodes = Symbol('enclave.httpCodes')
const kClassRouteConfig = Symbol('enclave.classRouteConfig')
const kMethodRouteConfig = Symbol('enclave.methodRouteConfig')
const kClassInterceptors = Symbol('enclave.classInterceptors')
const kMethodInterceptors = Symbol('enclave.methodInterceptors')
const kRequiredPlugins = Symbol('enclave.requiredPlugins')

type Key = symbol
function own<T>(key: Key, target: Function): T | undefined {
  return Reflect.getOwnMetadata(key, target) as T | undefined
}
function ownList<T>(key: Key, target: Function): readonly T[] {
  return own<readonly T[]>(key, target) ?? []
}
function append<T>(key: Key, target: Function, item: T, atStart = false): void {
  const list = ownList<T>(key, target)
  Reflect.defineMetadata(key, atStart ? [item, ...list] : [...list, item], target)
}

export const getModuleMeta = (target: Function) => own<ModuleMeta>(kModule, target)
export const setModuleMeta = (target: Function, meta: ModuleMeta) => Reflect.defineMetadata(kModule, meta, target)

export const getControllerMeta = (target: Function) => own<ControllerMeta>(kController, target)
export const setControllerMeta = (target: Function, meta: ControllerMeta) => Reflect.defineMetadata(kController, meta, target)

/** Routes declared on this very class, in source order. */
export const getOwnRoutes = (target: Function) => ownList<RouteMeta>(kRoutes, target)
/**
 * Appended in place: a controller of n routes would otherwise copy its list n times (O(n²) at class
 * load). Safe because only this file writes the list and every reader copies or counts it at once.
 */
export function addRoute(target: Function, route: RouteMeta): void {
  const list = own<RouteMeta[]>(kRoutes, target)
  if (list === undefined) Reflect.defineMetadata(kRoutes, [route], target)
  else list.push(route)
}

/** Parameter decorators of one method, sorted by index. */
export function getParams(target: Function, propertyKey: string | symbol): readonly ParamMeta[] {
  return own<Map<string | symbol, readonly ParamMeta[]>>(kParams, target)?.get(propertyKey) ?? []
}
/** The methods of this very class that carry parameter decorators. */
export function getParamMethods(target: Function): Array<string | symbol> {
  return [...(own<Map<string | symbol, readonly ParamMeta[]>>(kParams, target)?.keys() ?? [])]
}
export function addParam(target: Function, propertyKey: string | symbol, param: ParamMeta): void {
  const byMethod = new Map(own<Map<string | symbol, readonly ParamMeta[]>>(kParams, target) ?? [])
  const params = [...(byMethod.get(propertyKey) ?? []), param].sort((a, b) => a.index - b.index)
  byMethod.set(propertyKey, params)
  Reflect.defineMetadata(kParams, byMethod, target)
}

export const getSchemaMeta = (target: Function) => own<SharedSchema>(kSchema, target)
export const setSchemaMeta = (target: Function, schema: SharedSchema) => Reflect.defineMetadata(kSchema, schema, target)

// Class decorators apply bottom-up; prepending keeps the source order (top first).
export const getRequestDecorators = (target: Function) => ownList<DecoratorMeta>(kRequestDecorators, target)
export const addRequestDecorator = (target: Function, d: DecoratorMeta) => append(kRequestDecorators, target, d, true)
export const getReplyDecorators = (target: Function) => ownList<DecoratorMeta>(kReplyDecorators, target)
export const addReplyDecorator = (target: Function, d: DecoratorMeta) => append(kReplyDecorators, target, d, true)

export const getHooks = (target: Function) => ownList<HookMeta>(kHooks, target)
export const addHookMeta = (target: Function, hook: HookMeta) => append(kHooks, target, hook)

export const getErrorHandlerKey = (target: Function) => own<string | symbol>(kErrorHandler, target)
export const setErrorHandlerKey = (target: Function, key: string | symbol) => Reflect.defineMetadata(kErrorHandler, key, target)
/** What the module's error handler declares it answers, by status key (for the OpenAPI document). */
export const getErrorResponses = (target: Function) => own<Record<string, JsonSchema>>(kErrorResponses, target)
export const setErrorResponses = (target: Function, responses: Record<string, JsonSchema>) => Reflect.defineMetadata(kErrorResponses, responses, target)
export const getErrorContentType = (target: Function) => own<string>(kErrorContentType, target)
export const setErrorContentType = (target: Function, type: string) => Reflect.defineMetadata(kErrorContentType, type, target)

// Decorators apply bottom-up; prepending keeps the source order (top first) of stacked ones.
/** `@OnRequest()`-style hooks on the module or controller class itself. */
export const getClassRouteHooks = (target: Function) => ownList<RouteHookMeta>(kClassRouteHooks, target)
export const addClassRouteHooks = (target: Function, hooks: RouteHookMeta) => append(kClassRouteHooks, target, hooks, true)
/** `@OnRequest()`-style hooks per method of this very class. */
export function getMethodRouteHooks(target: Function): ReadonlyMap<string | symbol, readonly RouteHookMeta[]> {
  return own<Map<string | symbol, readonly RouteHookMeta[]>>(kMethodRouteHooks, target) ?? noEntries
}

/** What a class without that metadata answers: one empty map, not a new one per call (once per route at boot). */
const noEntries: ReadonlyMap<string | symbol, never> = new Map<string | symbol, never>()
export function addMethodRouteHooks(target: Function, propertyKey: string | symbol, hooks: RouteHookMeta): void {
  const byMethod = new Map(getMethodRouteHooks(target))
  byMethod.set(propertyKey, [hooks, ...(byMethod.get(propertyKey) ?? [])])
  Reflect.defineMetadata(kMethodRouteHooks, byMethod, target)
}

/** `@HttpCode()` per method of this very class. */
export function getMethodHttpCodes(target: Function): ReadonlyMap<string | symbol, number> {
  return own<Map<string | symbol, number>>(kHttpCodes, target) ?? noEntries
}
export function setMethodHttpCode(target: Function, propertyKey: string | symbol, status: number): void {
  Reflect.defineMetadata(kHttpCodes, new Map(getMethodHttpCodes(target)).set(propertyKey, status), target)
}

/** `routeMetadata()` values on the controller class itself, by key (merged into each route's `config`). */
export const getClassRouteConfig = (target: Function) => own<Readonly<Record<string, unknown>>>(kClassRouteConfig, target)
export function setClassRouteConfig(target: Function, key: string, value: unknown): void {
  Reflect.defineMetadata(kClassRouteConfig, { ...getClassRouteConfig(target), [key]: value }, target)
}
/** `routeMetadata()` values per method of this very class, by key. */
export function getMethodRouteConfig(target: Function): ReadonlyMap<string | symbol, Readonly<Record<string, unknown>>> {
  return own<Map<string | symbol, Readonly<Record<string, unknown>>>>(kMethodRouteConfig, target) ?? noEntries
}
export function setMethodRouteConfig(target: Function, propertyKey: string | symbol, key: string, value: unknown): void {
  const byMethod = new Map(getMethodRouteConfig(target))
  byMethod.set(propertyKey, { ...byMethod.get(propertyKey), [key]: value })
  Reflect.defineMetadata(kMethodRouteConfig, byMethod, target)
}

// Stacked @UseInterceptors() apply bottom-up; prepending keeps the source order (top one outermost).
/** `@UseInterceptors()` classes on the module or controller class itself, in wrapping order (outermost first). */
export const getClassInterceptors = (target: Function): readonly Function[] => ownList<readonly Function[]>(kClassInterceptors, target).flat()
export const addClassInterceptors = (target: Function, interceptors: readonly Function[]) => append(kClassInterceptors, target, interceptors, true)
/** `@UseInterceptors()` classes per method of this very class, in wrapping order. */
export function getMethodInterceptors(target: Function): ReadonlyMap<string | symbol, readonly Function[]> {
  return own<Map<string | symbol, readonly Function[]>>(kMethodInterceptors, target) ?? noEntries
}
export function addMethodInterceptors(target: Function, propertyKey: string | symbol, interceptors: readonly Function[]): void {
  const byMethod = new Map(getMethodInterceptors(target))
  byMethod.set(propertyKey, [...interceptors, ...(byMethod.get(propertyKey) ?? [])])
  Reflect.defineMetadata(kMethodInterceptors, byMethod, target)
}

export interface NotFoundHandlerMeta { readonly propertyKey: string | symbol; readonly preValidation: readonly Function[]; readonly preHandler: readonly Function[] }
export const getNotFoundHandler = (target: Function) => own<NotFoundHandlerMeta>(kNotFoundHandler, target)
export const setNotFoundHandler = (target: Function, meta: NotFoundHandlerMeta) => Reflect.defineMetadata(kNotFoundHandler, meta, target)

/**
 * A class's constructor dependencies as tsyringe will resolve them: the types TypeScript
 * emitted (`design:paramtypes`), overridden by `@inject()` tokens (tsyringe's own key; this
 * mirrors its getParamInfo). `undefined` when the class carries no type metadata at all.
 */
export function constructorDependencies(target: Function): unknown[] | undefined {
  const types = Reflect.getMetadata('design:paramtypes', target) as unknown[] | undefined
  const injected = Reflect.getOwnMetadata('injectionTokens', target) as Record<string, unknown> | undefined
  if (types === undefined && injected === undefined) return undefined
  const deps = [...(types ?? [])]
  for (const [index, token] of Object.entries(injected ?? {})) deps[Number(index)] = token
  return deps
}

/**
 * Whether the class carries the constructor parameter types TypeScript emits with
 * emitDecoratorMetadata. Build tools built on esbuild (tsx, tsup, vitest on vite 7 or older)
 * never emit them, even for a decorated class.
 */
export function hasConstructorTypes(target: Function): boolean {
  return Reflect.getMetadata('design:paramtypes', target) !== undefined
}

/** The `@inject()` tokens of a constructor's parameters, by index (tsyringe's own key). */
export function injectedParameterIndexes(target: Function): ReadonlySet<number> {
  const injected = Reflect.getOwnMetadata('injectionTokens', target) as Record<string, unknown> | undefined
  return new Set(Object.keys(injected ?? {}).map(Number))
}

/** Parameter types of a method (`design:paramtypes` on the prototype), to count its parameters. */
export function methodParamCount(target: Function, propertyKey: string | symbol): number | undefined {
  const types = Reflect.getMetadata('design:paramtypes', target.prototype, propertyKey) as unknown[] | undefined
  return types?.length
}

/** A method's parameter types as TypeScript emitted them (emitDecoratorMetadata): an interface or union is Object. */
export function methodParamTypes(target: Function, propertyKey: string | symbol): readonly unknown[] | undefined {
  return Reflect.getMetadata('design:paramtypes', target.prototype, propertyKey) as unknown[] | undefined
}

/** Module-only metadata found on a class: used to catch `@DecorateRequest` put on a controller. */
export function moduleOnlyDecorations(target: Function): string[] {
  const found: string[] = []
  if (getRequestDecorators(target).length > 0) found.push('@DecorateRequest')
  if (getReplyDecorators(target).length > 0) found.push('@DecorateReply')
  if (getHooks(target).length > 0) found.push('@Hook')
  if (getErrorHandlerKey(target) !== undefined) found.push('@ErrorHandler')
  if (getNotFoundHandler(target) !== undefined) found.push('@NotFoundHandler')
  return found
}

/**
 * Controller-only metadata found on a module class: `@OnRequest`-style decorators on its methods
 * (a module method is no route). On the module class itself they are the module's route hooks.
 */
export function controllerOnlyDecorations(target: Function): string[] {
  return getMethodRouteHooks(target).size > 0 ? ['@OnRequest/@PreHandler/@OnSend ...'] : []
}

/** `@Requires(plugin)` on this class and its base classes: the names of the plugins its routes rely on. */
export function getRequiredPlugins(target: Function): readonly string[] {
  const names: string[] = []
  for (let c: Function | null = target; c !== null && c !== Function.prototype; c = Object.getPrototypeOf(c) as Function | null) names.push(...ownList<string>(kRequiredPlugins, c))
  return [...new Set(names)]
}
export function addRequiredPlugins(target: Function, names: readonly string[]): void {
  for (const name of names) append(kRequiredPlugins, target, name)
}

/**
 * Every own metadata entry of `from` (ours, tsyringe's, TypeScript's design types) onto `to`: a
 * configured module class built from a base must read as that base did.
 */
export function copyOwnMetadata(from: Function, to: Function): void {
  for (const key of Reflect.getOwnMetadataKeys(from)) Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, from), to)
}
