import { describePathParams, didYouMean, finalUrls, pathParamNames } from '../runtime/internal'
import { getParams } from '../decorators/internal'
import { moduleError } from './module-error'
import type { DeclaredMethodRoute } from './declared-method-route'

/**
 * Refuses `@Params('idd')` on a method none of whose routes has `:idd`: the parameter would be
 * undefined on every request while typed as a string. Read from each route's url after the
 * runtime declared it, so module prefixes and urls rewritten by a plugin's onRoute hook count
 * (`route.url = '/:lang' + route.url`). A method with several route decorators
 * (`@Get('/') @Get('/:id')`, NestJS's optional id) may name a parameter some of its routes have.
 */
export function checkParamNames(routes: readonly DeclaredMethodRoute[]): void {
  const byMethod = new Map<Function, Map<string | symbol, DeclaredMethodRoute[]>>()
  for (const route of routes) {
    let keys = byMethod.get(route.declaringClass)
    if (keys === undefined) byMethod.set(route.declaringClass, keys = new Map())
    const list = keys.get(route.key)
    if (list === undefined) keys.set(route.key, [route])
    else list.push(route)
  }
  for (const [declaringClass, keys] of byMethod) {
    for (const [key, list] of keys) checkMethod(declaringClass, key, list)
  }
}

function checkMethod(declaringClass: Function, key: string | symbol, routes: readonly DeclaredMethodRoute[]): void {
  let paths: Array<{ url: string; names: string[] }> | undefined
  for (const param of getParams(declaringClass, key)) {
    if (param.source !== 'params' || param.key === null) continue
    paths ??= routes.map(({ options }) => { const url = finalUrls.get(options)!; return { url, names: pathParamNames(url) } })
    if (paths.some(({ names }) => names.includes(param.key!))) continue
    const all = [...new Set(paths.flatMap(({ names }) => names))]
    const hint = didYouMean(param.key, all)
    const detail = paths.length === 1
      ? `the path '${paths[0].url}' has ${describePathParams(paths[0].names)}${hint}`
      : `none of its paths has it (${paths.map(({ url, names }) => `'${url}' has ${describePathParams(names)}`).join(', ')}${hint})`
    throw moduleError('ENC_ERR_MODULE_PARAM_NOT_IN_PATH', { where: routes[0].where, index: param.index, key: param.key, detail })
  }
}
