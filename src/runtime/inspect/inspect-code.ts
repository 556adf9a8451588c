// What the scope's inspection methods call, in one module so that load-inspect.ts loads it with one require.
export { createInspectView } from './inspect-view'
export { printPlugins } from './print-plugins'
