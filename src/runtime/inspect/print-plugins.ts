/** One registration as printPlugins shows it: built by the server from the plugin tree. */
export interface PluginLoadInspection {
  readonly name: string
  /** Milliseconds it and its own registrations took to load; null when it never loaded (skipped after a failure). */
  readonly ms: number | null
  readonly children: readonly PluginLoadInspection[]
}

/**
 * Fastify's printPlugins (avvio's prettyPrint): the registrations as loaded, nested as they
 * were registered, each with the time it and its own registrations took.
 *
 * @example
 * root 14 ms
 * ├── auth 2 ms
 * └── api 11 ms
 *     └── users 9 ms
 */
export function printPlugins(root: PluginLoadInspection): string {
  const lines = [label(root)]
  render(root, '', lines)
  return lines.join('\n') + '\n'
}

function label(node: PluginLoadInspection): string {
  return `${node.name} ${node.ms === null ? '(not loaded)' : `${Math.round(node.ms)} ms`}`
}

function render(node: PluginLoadInspection, indent: string, lines: string[]): void {
  node.children.forEach((child, i) => {
    const last = i === node.children.length - 1
    lines.push(`${indent}${last ? '└── ' : '├── '}${label(child)}`)
    render(child, indent + (last ? '    ' : '│   '), lines)
  })
}
