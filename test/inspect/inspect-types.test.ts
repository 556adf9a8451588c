import { expect } from 'chai'
import type { OpenApiDocument, RouteInspection, Scope, ScopeInspection } from '../../src'

// Compiled by tsc in npm test: each @ts-expect-error line must be an error, each plain line must compile.
function typed(app: Scope): void {
  const text: string = app.printRoutes()
  const routes: readonly RouteInspection[] = app.printRoutes({ json: true })
  const root: ScopeInspection = app.printTree({ json: true })
  const route: RouteInspection = app.explain('GET /x', { json: true })
  const doc: OpenApiDocument = app.openapi({ title: 'x', version: '1' })
  const method: string = doc.paths['/x'].get.operationId
  // @ts-expect-error the text form is a string, not the route models
  const wrong: readonly RouteInspection[] = app.printRoutes()
  // @ts-expect-error the info object has no 'titel'
  app.openapi({ titel: 'x' })
  // @ts-expect-error explain takes the route as 'METHOD /path' text
  app.explain({ method: 'GET', url: '/x' })
  void [text, routes, root, route, method, wrong]
}

describe('introspection: the scope methods are typed (compiled by tsc)', () => {
  it('has the JSON overloads (the type lines above compile, the misuses do not)', () => {
    expect(typed).to.be.a('function')
  })
})
