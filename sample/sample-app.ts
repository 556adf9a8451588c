import { DecorateRequest, Module, type Class } from '../src/decorators'
import { createApp, type App } from '../src/modules'
import type { Scope, ServerOptions } from '../src/runtime'
import { openApiDocument, type OpenApiDocument } from '../src/openapi'
import { CatalogModule } from './catalog/catalog-modules'
import { contextModules, type ContextModulesOptions } from './context/context-modules'

export interface SampleOptions extends ContextModulesOptions {
  server?: ServerOptions
}

/**
 * The root module of the sample: the example application of spec §4.1 (the root decorates
 * `answer`; /one behind a bearer token, /two and /three public) plus the catalog showcase, and
 * its OpenAPI document at /openapi.json.
 */
export function sampleRootModule(options: ContextModulesOptions): Class {
  // GET /openapi.json: the OpenAPI 3.1 document of this very module tree, built on first request.
  const openapi = async function openapi(scope: Scope): Promise<void> {
    let document: OpenApiDocument | undefined
    scope.get('/openapi.json', () => (document ??= openApiDocument(AppModule, { title: 'Enclave sample', version: '1.0.0' })))
  }
  @DecorateRequest('answer', 42)
  @Module({ plugins: [...contextModules(options), CatalogModule, openapi] })
  class AppModule {}
  return AppModule
}

/** Boots the sample (both variants, for tests and for main.ts); the server is ready, not listening. */
export function buildSampleApp({ server, ...options }: SampleOptions): Promise<App> {
  return createApp(sampleRootModule(options), server)
}
