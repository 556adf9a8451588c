import type * as InspectCode from './inspect-code'

/**
 * The renderers behind printRoutes/printTree/printPlugins/explain/inspect/openapi (inspect-code.ts),
 * loaded on the first such call: an app that never inspects itself (a serverless function) does
 * not load them (~5 ms CPU of `require('enclave')`, bench/README "session 18").
 */
export function loadInspect(): typeof InspectCode {
  return require('./inspect-code') as typeof InspectCode
}
