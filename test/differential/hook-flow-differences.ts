// README differences the `hook-flow` family meets (hook-flow.ts). Each asks Fastify 3 again with
// the app changed as the rule says Enclave reads it; the changes of the rules before it that apply
// are made too (they compose: a replay starts from the case's own app), and an answer remembers
// the last rule it reflects (`shapeStep`), so a later pass does not replay it afresh.
import type { Answer, Case } from './case'
import type { KnownDifference, RewriteContext } from './difference-types'
import { flowRoute, type FlowShape } from './hook-flow'

// Offset from the app family's steps (app-differences.ts), which only app-shape cases carry.
const STEP_BASE = 100

function isBuiltInErrorPayload(a: Answer): boolean {
  // An onSend hook may have appended its tag to the text (`...}<h2>`).
  let b = a.body as Record<string, unknown> | null
  if (typeof a.body === 'string') {
    try { b = JSON.parse(a.body.replace(/(<\w+>)+$/, '')) as Record<string, unknown> } catch { return false }
  }
  if (b === null || typeof b !== 'object' || Array.isArray(b)) return false
  const keys = Object.keys(b).filter((k) => k !== 'code').sort().join(',')
  return keys === 'error,message,statusCode'
}

interface Step {
  id: string
  readme: string
  applies(shape: FlowShape, c: Case, enclave: Answer): boolean
  change(shape: FlowShape): FlowShape
}

const STEPS: Step[] = [
  {
    id: 'hook-flow-handlers-chain',
    readme: 'Error handlers chain: when one throws or sends the error on, the next one up (the parent\n  scope\'s) gets it before the built-in reply',
    // The plugin's handler rethrows and the root has one: Fastify 3 asked with the root's in its place.
    applies: (shape, c) => shape.errorHandlers.plugin === 'rethrow' && shape.errorHandlers.root !== undefined && c.request.url.startsWith('/p/'),
    change: (shape) => ({ ...shape, chain: true }),
  },
  {
    id: 'hook-flow-observers-go-on',
    readme: 'An onError hook that throws or passes an error to `done()` is logged and the onError hooks after\n  it still run',
    applies: (shape) => shape.hooks.some((h) => h.stage === 'onError' && h.mode !== 'pass'),
    change: (shape) => ({ ...shape, hooks: shape.hooks.map((h) => (h.stage === 'onError' ? { ...h, mode: 'pass' as const } : h)) }),
  },
  {
    id: 'hook-flow-built-in-payload-skips-pre-serialization',
    readme: 'The built-in 404 payload, like every error payload the framework builds, skips preSerialization\n  hooks',
    // Only where Enclave answered with a payload it built; a handler's payload still meets them.
    applies: (shape, _c, enclave) => isBuiltInErrorPayload(enclave) && shape.hooks.some((h) => h.stage === 'preSerialization'),
    change: (shape) => ({ ...shape, hooks: shape.hooks.filter((h) => h.stage !== 'preSerialization') }),
  },
  {
    id: 'hook-flow-sent-once-accepted',
    readme: '`reply.sent` is true as soon as `send()` has accepted a payload, also while preSerialization\n  hooks and the serializer run',
    // The handler's throw after its send() meets a reply still in its preSerialization hooks: Enclave
    // keeps the payload sent (the throw is logged), so Fastify 3 is asked without the throw.
    applies: (shape, c, enclave) => shape.handler === 'send-then-throw' && enclave.statusCode === 200 && shape.hooks.some((h) => h.stage === 'preSerialization' && (h.level === 'root' || c.request.url.startsWith('/p/'))),
    change: (shape) => ({ ...shape, handler: 'send' }),
  },
]

async function replayThrough(index: number, f: Answer, c: Case, enclave: Answer, replay: RewriteContext['replay']): Promise<Answer | undefined> {
  const shape = c.flow
  if (shape === undefined || !STEPS[index]?.applies(shape, c, enclave) || (f.shapeStep ?? -1) >= STEP_BASE + index) return undefined
  let changed = shape
  for (let i = 0; i <= index; i++) if ((STEPS[i] as Step).applies(shape, c, enclave)) changed = (STEPS[i] as Step).change(changed)
  return { ...await replay(c.request, flowRoute(changed)), shapeStep: STEP_BASE + index }
}

export const HOOK_FLOW_DIFFERENCES: KnownDifference[] = STEPS.map((step, index) => ({
  id: step.id,
  readme: step.readme,
  rewrite: (f, { c, enclave, replay }) => replayThrough(index, f, c, enclave, replay),
}))
