import { describePathParams, didYouMean, pathParamNames } from '../runtime/internal'
import { getParams } from '../decorators/internal'
import { moduleError } from './module-error'
import type { ModuleNode } from './module-tree'

/**
 * The prefixes of a module and its ancestors, outermost first, joined: enough to read the path
 * parameters a module prefix adds (`prefix: '/:tenant'`), not a served url.
 */
export function modulePrefixOf(node: ModuleNode): string {
  let prefix = ''
  for (let n: ModuleNode | null = node; n !== null; n = n.parent) prefix = n.meta.prefix + prefix
  return prefix
}

/**
 * Refuses `@Params('idd')` on a route whose path has no `:idd`: the parameter would be undefined
 * on every request while typed as a string. Wildcard (`*`) and regex parameters count.
 */
export function checkParamNames(declaringClass: Function, key: string | symbol, path: string, where: string): void {
  let names: string[] | undefined
  for (const param of getParams(declaringClass, key)) {
    if (param.source !== 'params' || param.key === null) continue
    names ??= pathParamNames(path)
    if (names.includes(param.key)) continue
    throw moduleError('ENC_ERR_MODULE_PARAM_NOT_IN_PATH', {
      where, index: param.index, key: param.key, path, params: describePathParams(names), hint: didYouMean(param.key, names) })
  }
}
