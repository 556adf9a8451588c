import { dirname, join, sep } from 'node:path'

/**
 * tsyringe keeps what @injectable() learns about a class (its constructor parameter types) in a
 * Map that is module state of one tsyringe copy (`typeInfo` in dist/cjs/dependency-container.js).
 * When an app has two copies (an app pinning another 4.x, an `npm link`ed or `file:` dependency
 * with its own node_modules), a class decorated with the app's copy is unknown to Enclave's copy,
 * and resolving it fails with tsyringe's bare "TypeInfo not known for X". Both copies are plain
 * CommonJS modules (tsyringe has no exports map, so even `import` loads dist/cjs), so the copies
 * in this process are the cached `dependency-container.js` modules that carry such a Map.
 */
interface TsyringeCopy {
  /** The package directory, for the message: `/app/node_modules/tsyringe`. */
  readonly root: string
  readonly typeInfo: Map<unknown, unknown>
}

const containerFile = `${sep}dist${sep}cjs${sep}dependency-container.js`

// The copy Enclave resolves from: the same lookup `import 'tsyringe'` made in injector.ts.
const ownFile = join(dirname(require.resolve('tsyringe')), 'dependency-container.js')

function loadedCopies(): TsyringeCopy[] {
  const copies: TsyringeCopy[] = []
  for (const [file, cached] of Object.entries(require.cache)) {
    if (!file.endsWith(containerFile)) continue
    const typeInfo = (cached?.exports as { typeInfo?: unknown } | undefined)?.typeInfo
    if (typeInfo instanceof Map) copies.push({ root: file.slice(0, -containerFile.length), typeInfo })
  }
  return copies
}

/** How tsyringe would see a class Enclave is about to construct. */
export type TypeInfoStatus =
  | { readonly known: true }
  | { readonly known: false; readonly ownCopy: string; readonly decoratedBy: string | null }

/**
 * Whether Enclave's tsyringe copy knows `target`'s constructor parameters. Only classes with
 * parameters need it: tsyringe builds a parameterless class with `new` whatever copy decorated it.
 */
export function typeInfoStatus(target: Function, parameterCount: number): TypeInfoStatus {
  if (parameterCount === 0) return { known: true }
  const copies = loadedCopies()
  const own = copies.find((c) => join(c.root, containerFile) === ownFile)
  // Enclave's copy is always loaded (injector.ts imports it); if the cache was cleared, stay quiet.
  if (own === undefined || own.typeInfo.has(target)) return { known: true }
  const other = copies.find((c) => c !== own && c.typeInfo.has(target))
  return { known: false, ownCopy: own.root, decoratedBy: other === undefined ? null : other.root }
}
