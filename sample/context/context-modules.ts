import { DecorateRequest, Module, type Class } from '../../src/decorators'
import { lift } from '../../src/runtime'
import { bearerAuth } from '../../src/plugins'
import { OneController, TwoController } from './context-controllers'
import { GrandchildModule } from './grandchild-module'

export interface ContextModulesOptions {
  /** Accepted bearer tokens for GET /one. */
  keys: readonly string[]
  /** Register the grandchild through lift(): its `bar` becomes visible to /two (spec §4.1, last line). */
  liftGrandchild: boolean
}

/**
 * `authenticatedContext` and `publicContext` of spec §4.1. Declared in a function because their
 * `plugins` depend on configuration (the keys, lifting or not); the controllers are plain classes.
 */
export function contextModules({ keys, liftGrandchild }: ContextModulesOptions): Class[] {
  // The bearer plugin is lifted: it guards this module's routes only, not its siblings' (spec §5.3).
  @Module({ plugins: [bearerAuth({ keys })], controllers: [OneController] })
  class AuthenticatedModule {}

  @DecorateRequest('foo', 'foo')
  @Module({ plugins: [liftGrandchild ? lift(GrandchildModule) : GrandchildModule], controllers: [TwoController] })
  class PublicModule {}

  return [AuthenticatedModule, PublicModule]
}
