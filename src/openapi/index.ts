import { scan } from '../modules/scan'
import { buildOpenApiDocument, type OpenApiDocument, type OpenApiInfo } from './openapi-document'

export type { OpenApiDocument, OpenApiInfo } from './openapi-document'

/**
 * The OpenAPI 3.1 document of an application's module tree (see buildOpenApiDocument).
 *
 * @example
 * const document = openApiDocument(AppModule, { title: 'Notes', version: '1.0.0' })
 */
export function openApiDocument(root: Function, info?: OpenApiInfo): OpenApiDocument {
  return buildOpenApiDocument(scan(root), info)
}
