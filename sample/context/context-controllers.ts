import { Get, Route } from '../../src/decorators'
import type { Request } from '../../src/runtime'

// The request decorators of the context modules (context-modules.ts, grandchild-module.ts), typed
// for every route; on a route outside the declaring module's context they read undefined.
declare module '../../src/runtime' {
  interface RequestDecorations { answer: number; foo: string; bar: string }
}

/**
 * The three routes of spec §4.1. Each answers the request decorators it can see; one that is not
 * visible from the route's context reads as undefined (spec §3.3.6) and is left out of the JSON.
 */
function visibleDecorators(request: Request): { answer: unknown; foo: unknown; bar: unknown } {
  return { answer: request.answer, foo: request.foo, bar: request.bar }
}

@Route()
export class OneController {
  @Get('/one') one(request: Request) { return visibleDecorators(request) }
}

@Route()
export class TwoController {
  @Get('/two') two(request: Request) { return visibleDecorators(request) }
}

@Route()
export class ThreeController {
  @Get('/three') three(request: Request) { return visibleDecorators(request) }
}
