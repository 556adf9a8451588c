// The shape of a known-difference entry (known-differences.ts, app-differences.ts).
import type { Transport } from './apps'
import type { Answer, Case, RequestSpec, RouteSpec } from './case'

export interface RewriteContext {
  c: Case
  enclave: Answer
  transport: Transport
  /** Fastify 3's answer to another request, on the same route or on `route`. */
  replay(request: RequestSpec, route?: RouteSpec, app?: Pick<Case, 'app' | 'chainErrorHandlers'>): Promise<Answer>
}

export interface KnownDifference {
  id: string
  /** Text of the README line that lists the difference (a substring, found by the suite). */
  readme: string
  /** Fastify 3's answer as Enclave gives it under this rule, or undefined when the rule does not apply. */
  rewrite(fastify3: Answer, context: RewriteContext): Answer | undefined | Promise<Answer | undefined>
}
