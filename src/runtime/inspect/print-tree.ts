import type { Declared, FunctionInspection, ScopeInspection } from '../shared/introspection'

/**
 * The scope tree, one block per scope: the modules that declare into it (a lifted module shares
 * its parent's scope), then its own providers, decorators, hooks, shared schemas, error handler
 * and compilers, each with the module or plugin it came from.
 */
export function printTree(root: ScopeInspection): string {
  const lines: string[] = []
  renderScope(root, '', '', lines)
  return lines.join('\n') + '\n'
}

function renderScope(scope: ScopeInspection, head: string, indent: string, lines: string[]): void {
  const name = scope.path.split(' > ').pop()
  lines.push(`${head}${name}  (prefix ${scope.prefix === '' ? '/' : scope.prefix}, scope ${scope.path})`)
  const body = indent + (scope.children.length > 0 ? '│ ' : '  ')
  for (const line of details(scope)) lines.push(`${body}${line}`)
  scope.children.forEach((child, i) => {
    const last = i === scope.children.length - 1
    renderScope(child, `${indent}${last ? '└── ' : '├── '}`, `${indent}${last ? '    ' : '│   '}`, lines)
  })
}

const from = (origin: string): string => `  [${origin}]`
const fn = (label: string, f: FunctionInspection | null): string[] => f === null ? [] : [`${label}: ${f.fn}${from(f.origin)}`]
const named = (label: string, list: readonly Declared[]): string[] => list.map((d) => `${label}: ${d.name}${from(d.origin)}`)

function details(scope: ScopeInspection): string[] {
  const out: string[] = []
  for (const module of scope.modules) {
    out.push(`module: ${module.path}`)
    for (const provider of module.providers) out.push(`provider: ${provider}${from(module.path)}`)
  }
  out.push(...named('decorator', scope.decorators.instance), ...named('request decorator', scope.decorators.request), ...named('reply decorator', scope.decorators.reply))
  for (const hook of scope.hooks) out.push(`hook ${hook.name}: ${hook.fn}${from(hook.origin)}`)
  out.push(...named('schema', scope.schemas))
  if (scope.errorHandler !== null) {
    const answers = scope.errorHandler.responses === null ? '' : ` (answers ${Object.keys(scope.errorHandler.responses).join(', ')})`
    out.push(`error handler: ${scope.errorHandler.fn}${answers}${from(scope.errorHandler.origin)}`)
  }
  out.push(...fn('not-found handler', scope.notFoundHandler), ...fn('validator compiler', scope.validatorCompiler),
    ...fn('serializer compiler', scope.serializerCompiler), ...fn('schema error formatter', scope.schemaErrorFormatter))
  return out
}
