import type { InspectView, Inspection } from '../shared/introspection'
import { explainRoute, findRoute } from './explain'
import { buildOpenApi } from './openapi/document'
import { printRoutes } from './print-routes'
import { printTree } from './print-tree'

/** The scope methods' view of one booted server's introspection model (built once, read many times). */
export function createInspectView(inspection: Inspection): InspectView {
  return {
    inspect: () => inspection,
    printRoutes: (options) => printRoutes(inspection.routes, options),
    printTree: () => printTree(inspection.root),
    explain: (route) => explainRoute(findRoute(inspection.routes, route)),
    explainJson: (route) => findRoute(inspection.routes, route),
    openapi: (info, within) => buildOpenApi(inspection, info, within),
  }
}
