// The content API of docs/recipes-content-api.md: plugins, controllers and providers, one module.
import jwt from '@fastify/jwt'
import accepts from '@fastify/accepts'
import compress from '@fastify/compress'
import etag from '@fastify/etag'
import { Module, openapiRoute } from '../../../src'
import { Db, DbConfig } from './db'
import { CdnConfig, CdnPurger } from './cdn'
import { ArticleStore, ArticlesController, EditorGuard, PreviewController } from './articles'

/**
 * coerceTypes 'array': one ?tag=science is ['science']. removeAdditional false: with Fastify's default
 * (true), `additionalProperties: false` silently drops a misspelt ?tags= or body field; here it is a 400.
 */
export const appOptions = { validator: { customOptions: { coerceTypes: 'array' as const, removeAdditional: false } } }

export interface ContentOptions { databaseUrl: string; jwtSecret: string; cdnPurgeUrl: string; cdnToken: string }

export function contentModule(options: ContentOptions) {
  @Module({
    plugins: [
      [compress, { threshold: 256 }],
      [etag, { weak: true }],
      [jwt, { secret: options.jwtSecret }],
      accepts,
      openapiRoute({ path: '/openapi.json', info: { title: 'Content API', version: '1.0.0' } }),
    ],
    controllers: [ArticlesController, PreviewController],
    providers: [
      { provide: DbConfig, useValue: new DbConfig(options.databaseUrl) },
      { provide: CdnConfig, useValue: new CdnConfig(options.cdnPurgeUrl, options.cdnToken) },
      Db, ArticleStore, CdnPurger, EditorGuard,
    ],
  })
  class ContentModule {}
  return ContentModule
}
