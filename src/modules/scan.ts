import type { PluginOptions } from '../runtime'
import { isLifted, liftedTarget } from '../runtime/internal'
import {
  controllerOnlyDecorations, deferredPluginOf, getClassInterceptors, getClassRouteHooks, getClassRouteConfig, getParamMethods, getParams, getMethodRouteConfig, getControllerMeta, getMethodHttpCodes, getMethodRouteHooks, getModuleMeta, getNotFoundHandler, getOwnRoutes, getSchemaMeta,
  inlineSchemaClasses, inlinedSchemaOfClass, moduleOnlyDecorations, schemaOfClass, configurationOf, type Class, type PluginEntry,
} from '../decorators/internal'
import type { SharedSchema } from '../runtime/schemas/types'
import type { TypeBoxLike } from '../runtime/typed-schemas'
import { moduleError } from './module-error'
import { checkGuardClass, guardClassesOf, moduleGuardClassesOf } from './route-guards'
import { checkInterceptors } from './interceptors'
import { checkNestConfigure } from './nest-configure'
import { commonAncestor, scopeOwner, walk, type ModuleNode, type PluginItem } from './module-tree'

/**
 * Builds the module tree from the root class and checks everything that can be checked from
 * the declarations alone. Each error names the module path and the fix.
 */
export function scan(root: Function): ModuleNode {
  const type = liftedTarget(root)
  if (getModuleMeta(type) === undefined) throw notAModule(type, 'createApp()')
  const placements: Placements = { globals: globalModulesIn(type), hoisted: [], imported: [] }
  const tree = scanNode({ type: type as Class, parent: null, lifted: false, ancestry: [] }, placements)
  placeDeferred(tree, placements)
  return tree
}

interface ScanInput { type: Class; parent: ModuleNode | null; lifted: boolean; ancestry: readonly Function[] }

/**
 * Modules whose place in the tree is decided once the whole tree is scanned, so one instance serves
 * every module that needs it, as NestJS shares one instance of a module:
 * - `hoisted`: a global module (setExtras' `global: true`) listed below the root's container goes
 *   into the root, as NestJS makes a global module's exports visible everywhere;
 * - `imported`: a forRootAsync() `imports` entry visible from nowhere above its importer is lifted
 *   into the nearest common ancestor of every module importing it.
 */
interface Placements {
  /** The global modules listed in `plugins` below the root (globalModulesIn): visible everywhere once hoisted. */
  readonly globals: ReadonlySet<Function>
  hoisted: Array<{ readonly type: Class; readonly listedIn: ModuleNode }>
  imported: Array<{ readonly type: Class; readonly importer: ModuleNode }>
}

function scanNode({ type, parent, lifted, ancestry }: ScanInput, placements: Placements, label?: string): ModuleNode {
  const meta = getModuleMeta(type)!
  const name = label ?? (lifted ? `lift(${type.name})` : type.name)
  const path = parent === null ? name : `${parent.path} > ${name}`
  if (ancestry.includes(type)) {
    const cycle = [...ancestry.slice(ancestry.indexOf(type)), type].map((t) => t.name).join(' > ')
    throw moduleError('ENC_ERR_MODULE_CYCLE', { path, cycle })
  }
  const misplaced = controllerOnlyDecorations(type)
  if (misplaced.length > 0) {
    throw moduleError('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED', { case: 'module', path, name: type.name })
  }
  const moduleMetadata = Object.keys(getClassRouteConfig(type) ?? {})
  if (moduleMetadata.length > 0) {
    throw moduleError('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED', { case: 'metadata-module', path, name: type.name, keys: moduleMetadata })
  }
  checkParamTargets(type, new Set(), path, 'module')
  for (const guard of moduleGuardClassesOf(type)) checkGuardClass(guard, type, path)
  checkInterceptors(type, path, 'module')
  checkNestConfigure(type, path)
  const entries: PluginItem[] = []
  const node: ModuleNode = {
    type, meta, path, parent, lifted, entries,
    controllers: checkControllers(meta.controllers, path),
    schemas: meta.schemas.map((entry, index) => toSchema(entry, index, path)),
  }
  const seen = new Set<Function>()
  meta.plugins.forEach((entry, index) => {
    const item = toItem(entry, index, path)
    if (item.kind === 'plugin') {
      entries.push(item)
      return
    }
    if (seen.has(item.type)) {
      throw moduleError('ENC_ERR_MODULE_DUPLICATE_ENTRY', { path, name: item.type.name, index })
    }
    seen.add(item.type)
    // A global module whose container would not be the root's: placed in the root (placeDeferred).
    if (placements.globals.has(item.type) && scopeOwner(node).parent !== null) {
      placements.hoisted.push({ type: item.type, listedIn: node })
      return
    }
    entries.push({ kind: 'module', node: scanNode({ type: item.type, parent: node, lifted: item.lifted, ancestry: [...ancestry, type] }, placements) })
  })
  configurationOf(type)?.imports.forEach((imported, index) => {
    const target = liftedTarget(imported)
    if (getModuleMeta(target) === undefined) throw notAModule(target, `${path}: imports[${index}]`)
    // NestJS shares one instance of an imported module: one visible here already is used as it is.
    if (seen.has(target) || visibleFrom(node, target) || [...placements.globals].some((global) => isOrConfigures(global, target))) return
    seen.add(target)
    placements.imported.push({ type: target as Class, importer: node })
  })
  checkNotFoundHandler(node)
  checkModuleHooksApply(node)
  return node
}

/**
 * Places the modules scan() deferred (see Placements), then what those modules list in turn. A
 * hoisted global module goes in the root before the root entry whose subtree lists it (so that
 * subtree's scopes see its hooks, as if the root listed it there); an import not visible above its
 * importers is lifted into their nearest common ancestor, after what that module lists: one node
 * (one instance) for all of them. The same module hoisted or imported twice is placed once.
 */
function placeDeferred(root: ModuleNode, placements: Placements): void {
  const rootEntries = root.entries as PluginItem[]
  const placed = new Set<Function>(rootEntries.flatMap((e) => e.kind === 'module' ? [e.node.type] : []))
  const ancestryOf = (node: ModuleNode): Function[] => {
    const types: Function[] = []
    for (let n: ModuleNode | null = node; n !== null; n = n.parent) types.unshift(n.type)
    return types
  }
  while (placements.hoisted.length > 0 || placements.imported.length > 0) {
    const hoisted = placements.hoisted.splice(0)
    for (const { type, listedIn } of hoisted) {
      if (placed.has(type)) continue
      placed.add(type)
      const node = scanNode({ type, parent: root, lifted: true, ancestry: [root.type] }, placements, `lift(${type.name}) [global, listed in ${listedIn.path}]`)
      let top = listedIn
      while (top.parent !== root && top.parent !== null) top = top.parent
      const at = rootEntries.findIndex((e) => e.kind === 'module' && e.node === top)
      rootEntries.splice(at === -1 ? rootEntries.length : at, 0, { kind: 'module', node })
    }
    const imported = placements.imported.splice(0)
    for (const type of new Set(imported.map((i) => i.type))) {
      const importers = imported.filter((i) => i.type === type).map((i) => i.importer)
      const home = importers.reduce(commonAncestor)
      // Lifted there already (an earlier round): shared as it is.
      if (home.entries.some((e) => e.kind === 'module' && e.node.type === type && e.node.lifted)) continue
      const node = scanNode({ type, parent: home, lifted: true, ancestry: ancestryOf(home) }, placements)
      ;(home.entries as PluginItem[]).push({ kind: 'module', node })
    }
  }
}

/**
 * Every global configured module listed in `plugins` somewhere below the root (also below a
 * forRootAsync() import). One reached only as a forRootAsync() import is placed as imports are
 * (placements.imported), so it is not counted here: the import loop would skip it as placed.
 */
function globalModulesIn(root: Function): Set<Function> {
  const globals = new Set<Function>()
  const visited = new Set<Function>()
  const visit = (type: Function, listed: boolean): void => {
    if (listed && configurationOf(type)?.global === true) globals.add(type)
    if (visited.has(type)) return
    visited.add(type)
    for (const entry of getModuleMeta(type)?.plugins ?? []) {
      // A module is never a [plugin, options] entry (toItem refuses one), so a function entry is all to follow.
      if (typeof entry !== 'function') continue
      const inner = liftedTarget(entry)
      if (getModuleMeta(inner) !== undefined) visit(inner, true)
    }
    for (const imported of configurationOf(type)?.imports ?? []) if (getModuleMeta(liftedTarget(imported)) !== undefined) visit(liftedTarget(imported), false)
  }
  visit(root, true)
  return globals
}

/**
 * Whether `target`'s providers are visible from `node` without it: an ancestor is `target` (or a
 * forRoot() configuration of it), or has it lifted in (lift(), global).
 */
function visibleFrom(node: ModuleNode, target: Function): boolean {
  for (let ancestor = node.parent; ancestor !== null; ancestor = ancestor.parent) {
    // The node itself is among what its parent lifts in: its own imports are what is being decided.
    if (isOrConfigures(ancestor.type, target) || liftsIn(ancestor.type, target, new Set([node.type]))) return true
  }
  return false
}

function isOrConfigures(type: Function, target: Function): boolean {
  return type === target || configurationOf(type)?.base === target
}

function liftsIn(type: Function, target: Function, visited: Set<Function>): boolean {
  if (visited.has(type)) return false
  visited.add(type)
  const lifted = (getModuleMeta(type)?.plugins ?? []).flatMap((entry) => {
    if (typeof entry !== 'function') return []
    const inner = liftedTarget(entry)
    return getModuleMeta(inner) !== undefined && liftedWhereListed(entry, inner) ? [inner] : []
  })
  // A configuration's imports are not counted: placeDeferred() puts each where all its importers see it.
  for (const inner of lifted) {
    if (isOrConfigures(inner, target) || liftsIn(inner, target, visited)) return true
  }
  return false
}

/**
 * The runtime's rule (ENC_ERR_NOT_FOUND_NO_PREFIX), checked here to name the decorator and the
 * module's fix: unknown URLs are attributed to a scope by prefix, so a child module's handler
 * without a prefix of its own would also answer its parent's unknown URLs.
 */
function checkNotFoundHandler(node: ModuleNode): void {
  const handler = getNotFoundHandler(node.type)
  if (handler === undefined) return
  let owner = node
  while (owner.lifted && owner.parent !== null) owner = owner.parent
  if (owner.parent !== null && owner.meta.prefix === '') {
    throw moduleError('ENC_ERR_MODULE_NOT_FOUND_NO_PREFIX', { path: node.path, method: `${node.type.name}.${String(handler.propertyKey)}`, scopeOwner: owner.path, lifted: owner !== node })
  }
}

/**
 * A module's route hooks go on the controller routes of the module and its descendants only; with
 * none there they would guard nothing (routes a plugin function declares are not the module's).
 */
function checkModuleHooksApply(node: ModuleNode): void {
  const hooks = getClassRouteHooks(node.type)
  const interceptors = getClassInterceptors(node.type)
  if (hooks.length === 0 && interceptors.length === 0) return
  if ([...walk(node)].some((n) => n.controllers.length > 0)) return
  if (hooks.length === 0) throw moduleError('ENC_ERR_MODULE_INTERCEPTOR_INVALID', { case: 'module-no-routes', path: node.path, where: `module ${node.type.name}` })
  throw moduleError('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED', { case: 'module-no-routes', path: node.path, name: node.type.name })
}

type Entry = { kind: 'module'; type: Class; lifted: boolean } | Extract<PluginItem, { kind: 'plugin' }>

/**
 * `lift(X)`, or a global configured module (setExtras' `global: true`): its providers go in the listing
 * module's container. A global one is listed so only where that container is the root's (the root, or a
 * module lifted into it): listed lower, scan() hoists it into the root (placeDeferred).
 */
function liftedWhereListed(entry: Function, target: Function): boolean {
  return isLifted(entry) || configurationOf(target)?.global === true
}

function toItem(entry: PluginEntry, index: number, path: string): Entry {
  const [fn, options] = Array.isArray(entry) ? entry as unknown as readonly [Function, PluginOptions] : [entry as Function, undefined]
  const target = liftedTarget(fn)
  if (getModuleMeta(target) !== undefined) {
    if (options !== undefined) {
      throw moduleError('ENC_ERR_MODULE_ENTRY_OPTIONS', { path, index, name: target.name })
    }
    return { kind: 'module', type: target as Class, lifted: liftedWhereListed(fn, target) }
  }
  if (isClass(target)) throw notAModule(target, `${path}: plugins[${index}]`)
  const deferred = deferredPluginOf(fn)
  if (deferred !== undefined) return { kind: 'plugin', plugin: deferred.plugin, options, deferred }
  return { kind: 'plugin', plugin: fn, options, deferred: null }
}

function checkControllers(controllers: readonly Class[], path: string): readonly Class[] {
  const seen = new Set<Class>()
  for (const controller of controllers) {
    if (seen.has(controller)) {
      throw moduleError('ENC_ERR_MODULE_DUPLICATE_CONTROLLER', { path, name: controller.name })
    }
    seen.add(controller)
    if (getControllerMeta(controller) === undefined) {
      const routes = getOwnRoutes(controller).length
      throw moduleError('ENC_ERR_MODULE_NOT_A_CONTROLLER', { path, name: controller.name, routes })
    }
    const misplaced = moduleOnlyDecorations(controller)
    if (misplaced.length > 0) {
      throw moduleError('ENC_ERR_MODULE_MISPLACED_DECORATOR', { name: controller.name, path, decorators: misplaced })
    }
    checkRouteHookTargets(controller, path)
    for (const guard of guardClassesOf(controller)) checkGuardClass(guard, controller, path)
    checkInterceptors(controller, path, 'controller')
  }
  return controllers
}

/** A route hook decorator on a method that declares no route would silently guard nothing. */
function checkRouteHookTargets(controller: Class, path: string): void {
  for (let c: unknown = controller; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const routes = new Set(getOwnRoutes(c as Function).map((r) => r.propertyKey))
    for (const key of getMethodRouteHooks(c as Function).keys()) {
      if (!routes.has(key)) throw moduleError('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED', { case: 'not-a-route', path, name: `${(c as Function).name}.${String(key)}` })
    }
    for (const key of getMethodHttpCodes(c as Function).keys()) {
      if (!routes.has(key)) throw moduleError('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED', { case: 'http-code-not-a-route', path, name: `${(c as Function).name}.${String(key)}` })
    }
    for (const [key, config] of getMethodRouteConfig(c as Function)) {
      if (!routes.has(key)) throw moduleError('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED', { case: 'metadata-not-a-route', path, name: `${(c as Function).name}.${String(key)}`, keys: Object.keys(config) })
    }
    checkParamTargets(c as Function, routes, path, 'not-a-route')
  }
}

/**
 * Parameter decorators fill route handler parameters only: on any other method they would be
 * ignored (a createParamDecorator() factory would never run), so boot refuses them. A route method
 * of a subclass that overrides a decorated base method is checked on the base class it sits on.
 */
function checkParamTargets(type: Function, routes: ReadonlySet<string | symbol>, path: string, kind: 'module' | 'not-a-route'): void {
  for (const key of getParamMethods(type)) {
    if (routes.has(key)) continue
    const decorators = [...new Set(getParams(type, key).map((p) => `@${p.custom?.name ?? sourceDecorators[p.source]}()`))]
    throw moduleError('ENC_ERR_MODULE_PARAM_MISPLACED', { case: kind, path, name: `${type.name}.${String(key)}`, decorators })
  }
}

const sourceDecorators: Record<string, string> = { body: 'Body', query: 'Query', params: 'Params', headers: 'Headers', request: 'Req', reply: 'Reply', custom: 'custom' }

function toSchema(entry: Class | SharedSchema | TypeBoxLike, index: number, path: string): SharedSchema {
  // An object (a TypeBox schema too, whose `$id` is typed optional) is added as it is: addSchema checks its $id.
  // Schema classes nested in a shared schema are placed as in a route's (inlineSchemaClasses).
  if (typeof entry !== 'function') return inlineSchemaClasses(entry as SharedSchema)
  const fromClass = schemaOfClass(entry)
  if (fromClass !== undefined) {
    if (typeof fromClass.$id !== 'string' || fromClass.$id === '') {
      throw moduleError('ENC_ERR_MODULE_NOT_A_SCHEMA', { path, index, name: entry.name, schemaClassWithoutId: true })
    }
    return inlinedSchemaOfClass(entry as unknown as Function & { readonly schema: typeof fromClass }) as SharedSchema
  }
  const schema = getSchemaMeta(entry)
  if (schema === undefined) {
    throw moduleError('ENC_ERR_MODULE_NOT_A_SCHEMA', { path, index, name: entry.name })
  }
  return inlineSchemaClasses(schema)
}

function notAModule(type: Function, where: string) {
  return moduleError('ENC_ERR_MODULE_NOT_A_MODULE', { where, name: type.name || 'an anonymous class', isController: getControllerMeta(type) !== undefined })
}

/** A class, as opposed to a plugin function: only classes can be forgotten modules. */
function isClass(fn: Function): boolean {
  return /^class[\s{]/.test(Function.prototype.toString.call(fn))
}
