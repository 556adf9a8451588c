import { scan } from '../modules/scan'
import { buildOpenApiDocument, type OpenApiInfo } from './openapi-document'
import type { OpenApiDocument } from '../runtime'

export type { OpenApiInfo } from './openapi-document'

/**
 * The OpenAPI 3.1 document of an application's module tree (see buildOpenApiDocument).
 *
 * @example
 * const document = openApiDocument(AppModule, { title: 'Notes', version: '1.0.0' })
 */
export function openApiDocument(root: Function, info?: OpenApiInfo): OpenApiDocument {
  // The same document shape as app.openapi() (runtime/shared/openapi-types.ts): openapi, info, tags, paths, components.
  return buildOpenApiDocument(scan(root), info) as unknown as OpenApiDocument
}
