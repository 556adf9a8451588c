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

/**
 * The copy Enclave resolves from: the same lookup `import 'tsyringe'` made in injector.ts. Looked
 * up on first use, and null when it cannot be: in a bundle (esbuild, webpack) tsyringe is inlined,
 * there is no file to resolve, and a lookup at load time threw before the app could start.
 */
let ownFile: string | null | undefined
function ownContainerFile(): string | null {
  if (ownFile === undefined) {
    try { ownFile = join(dirname(require.resolve('tsyringe')), 'dependency-container.js') } catch { ownFile = null }
  }
  return ownFile
}

function typeInfoOf(cached: NodeJS.Module | undefined): Map<unknown, unknown> | null {
  const typeInfo = (cached?.exports as { typeInfo?: unknown } | undefined)?.typeInfo
  return typeInfo instanceof Map ? typeInfo : null
}

function loadedCopies(): TsyringeCopy[] {
  const copies: TsyringeCopy[] = []
  for (const [file, cached] of Object.entries(require.cache)) {
    if (!file.endsWith(containerFile)) continue
    const typeInfo = typeInfoOf(cached)
    if (typeInfo !== null) copies.push({ root: file.slice(0, -containerFile.length), typeInfo })
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
  // Enclave's copy is always loaded (injector.ts imports it); should the cache have been cleared, or
  // tsyringe be bundled into the app's file (no module of its own to look at), stay quiet.
  const file = ownContainerFile()
  const own = file === null ? null : typeInfoOf(require.cache[file])
  if (file === null || own === null || own.has(target)) return { known: true }
  // Only a class Enclave's copy does not know costs a look through the module cache.
  const other = loadedCopies().find((copy) => copy.typeInfo !== own && copy.typeInfo.has(target))
  return { known: false, ownCopy: file.slice(0, -containerFile.length), decoratedBy: other === undefined ? null : other.root }
}
