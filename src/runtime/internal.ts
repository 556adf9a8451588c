// The runtime's internal entry: what the layers above it (src/modules) need and users do not.
// Not re-exported from src/index.ts: free to change.
export { isLifted, liftedTarget } from './declare/lift'
export { defineError, errorFactory, codeSummaries, type ErrorDefinition } from './errors/define-errors'
export { runtimeError } from './errors/runtime-codes'
export { securityOf } from './shared/security'
export { describeRefusal } from './shared/refusals'
export { describeDefaultStatus } from './shared/default-status'
export { pathParamNames, describePathParams } from './shared/path-params'
export { finalUrls } from './declare/route-declaration'
export { didYouMean, closestName } from './schemas'
export { setSchemaClassPlacer } from './schemas/schema-class-placer'
export { isCompleteSchema } from './schemas/route-schema'
export { selfBoundedHook } from './shared/self-bounded-hook'
