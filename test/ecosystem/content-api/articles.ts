// The content API of docs/recipes-content-api.md: articles read with HTTP caching (ETag, Last-Modified,
// 304, Cache-Control, Vary), content negotiation (JSON, HTML, markdown; 406), Accept-Language,
// cursor pages with Link, moved slugs (301/308), conditional PUT (If-Match 412/428, If-Unmodified-Since),
// a CDN purge after an edit, and drafts previewed behind a JWT.
import { Body, Get, HttpError, OnRequest, Params, Put, Query, Reply, Req, Route, injectable, type Request } from '../../../src'
import { Db } from './db'
import { CdnPurger } from './cdn'
import { checkPreconditions, notModified } from './http-cache'

// @fastify/jwt's and @fastify/accepts' request members, read through a cast: the recipe's
// `declare module 'enclave'` would be global to the whole test program here.
interface PluginRequest {
  jwtVerify(): Promise<unknown>
  user: unknown
  accepts(): { type(types: string[]): string | string[] | false; language(languages: string[]): string | string[] | false }
}
const plugins = (request: Request): PluginRequest => request as unknown as PluginRequest

export const LANGUAGES = ['en', 'fr', 'de'] as const
const TYPES = ['application/json', 'text/html', 'text/markdown'] as const
const PUBLIC_CACHE = 'public, max-age=60, s-maxage=600, stale-while-revalidate=300'

interface ArticleRow { id: number; slug: string; status: string; tags: string[]; published_at: Date | null; updated_at: Date; version: number; author: string; lang: string; title: string; body: string }

const Article = {
  type: 'object',
  required: ['slug', 'title', 'author', 'tags', 'lang', 'version'],
  properties: {
    slug: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' }, author: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } }, lang: { type: 'string' }, version: { type: 'integer' },
    publishedAt: { type: ['string', 'null'], format: 'date-time' }, updatedAt: { type: 'string', format: 'date-time' },
  },
} as const

/** The framework's error body, declared for the statuses these routes answer themselves (documented in openapi()). */
const Problem = {
  type: 'object', required: ['statusCode', 'error', 'message'],
  properties: { statusCode: { type: 'integer' }, code: { type: 'string' }, error: { type: 'string' }, message: { type: 'string' } },
} as const

/** Response headers, documented in the OpenAPI document (@fastify/swagger's `headers` in a response schema). */
const CACHE_HEADERS = {
  etag: { type: 'string', description: 'Strong: the article version, language and media type' },
  'last-modified': { type: 'string', description: 'HTTP-date of the last edit' },
  'cache-control': { type: 'string', description: PUBLIC_CACHE },
  vary: { type: 'string' },
  'content-language': { type: 'string' },
} as const

const toJson = (row: ArticleRow) => ({
  slug: row.slug, title: row.title, body: row.body, author: row.author, tags: row.tags, lang: row.lang, version: row.version,
  publishedAt: row.published_at === null ? null : row.published_at.toISOString(), updatedAt: row.updated_at.toISOString(),
})

/** The strong ETag of one representation: the row's version, its language and its media type. */
const etagOf = (row: ArticleRow, type: string) => `"a${row.id}-v${row.version}-${row.lang}-${TYPES.indexOf(type as (typeof TYPES)[number])}"`

function pickLanguage(request: Request): (typeof LANGUAGES)[number] {
  return (plugins(request).accepts().language([...LANGUAGES]) || 'en') as (typeof LANGUAGES)[number]
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

interface Cursor { after: [string, number]; sort: string }
const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url')
function decodeCursor(text: string, sort: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString()) as Cursor
    if (cursor.sort === sort && Array.isArray(cursor.after) && typeof cursor.after[0] === 'string' && Number.isInteger(cursor.after[1])) return cursor
  } catch { /* fall through */ }
  throw new HttpError(400, 'Invalid cursor: use the nextCursor of the previous page with the same sort', { code: 'ARTICLES_INVALID_CURSOR' })
}

/** Editors only: a valid token whose role is editor. */
@injectable()
export class EditorGuard {
  async handle(request: Request): Promise<boolean> {
    await plugins(request).jwtVerify()
    return (plugins(request).user as { role?: string }).role === 'editor'
  }
}

@injectable()
export class ArticleStore {
  constructor(private readonly db: Db) {}

  async find(slug: string, lang: string, drafts = false): Promise<ArticleRow | undefined> {
    const { rows } = await this.db.pool.query<ArticleRow>(
      `select a.id, a.slug, a.status, a.tags, a.published_at, a.updated_at, a.version, au.name as author,
              t.lang, t.title, t.body
         from articles a join authors au on au.id = a.author_id
         join lateral (select * from article_texts t where t.article_id = a.id order by (t.lang = $2) desc, (t.lang = 'en') desc limit 1) t on true
        where a.slug = $1 and ($3 or a.status = 'published')`, [slug, lang, drafts])
    return rows[0]
  }

  async movedTo(slug: string): Promise<string | undefined> {
    const { rows } = await this.db.pool.query<{ slug: string }>(
      'select a.slug from slug_redirects r join articles a on a.id = r.article_id where r.old_slug = $1', [slug])
    return rows[0]?.slug
  }
}

@Route('/articles')
export class ArticlesController {
  constructor(private readonly db: Db, private readonly store: ArticleStore, private readonly cdn: CdnPurger) {}

  @Get('/', {
    schema: {
      querystring: {
        type: 'object', additionalProperties: false,
        properties: {
          tag: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 40 }, maxItems: 5 },
          sort: { type: 'string', enum: ['-publishedAt', 'publishedAt', 'slug'], default: '-publishedAt' },
          limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
          cursor: { type: 'string', maxLength: 200 },
        },
      },
      response: {
        200: {
          type: 'object', required: ['items', 'nextCursor'],
          headers: {
            link: { type: 'string', description: 'rel="next": the next page, when there is one' },
            etag: { type: 'string', description: 'Weak, from @fastify/etag' },
            'cache-control': { type: 'string' },
          },
          properties: {
            items: { type: 'array', items: { type: 'object', properties: { slug: { type: 'string' }, title: { type: 'string' }, publishedAt: { type: 'string' } } } },
            nextCursor: { type: ['string', 'null'] },
          },
        },
      },
    },
  })
  async list(@Query() query: { tag?: string[]; sort: '-publishedAt' | 'publishedAt' | 'slug'; limit: number; cursor?: string }, @Req() request: Request, @Reply() reply: Reply) {
    const lang = pickLanguage(request)
    const key = query.sort === 'slug' ? 'a.slug' : "to_char(a.published_at at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US')"
    const descending = query.sort === '-publishedAt'
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, query.sort)
    const params: unknown[] = [lang, query.tag ?? null, query.limit + 1]
    let after = ''
    if (cursor !== undefined) {
      params.push(cursor.after[0], cursor.after[1])
      after = `and (${key}, a.id) ${descending ? '<' : '>'} ($4, $5)`
    }
    const { rows } = await this.db.pool.query<{ id: number; slug: string; title: string; published_at: Date; key: string }>(
      `select a.id, a.slug, t.title, a.published_at, ${key} as key
         from articles a
         join lateral (select * from article_texts t where t.article_id = a.id order by (t.lang = $1) desc, (t.lang = 'en') desc limit 1) t on true
        where a.status = 'published' and ($2::text[] is null or a.tags && $2) ${after}
        order by ${key} ${descending ? 'desc' : 'asc'}, a.id ${descending ? 'desc' : 'asc'} limit $3`, params)
    const page = rows.slice(0, query.limit)
    const last = page[page.length - 1]
    const nextCursor = rows.length > query.limit && last !== undefined ? encodeCursor({ sort: query.sort, after: [last.key, last.id] }) : null
    if (nextCursor !== null) {
      const next = new URLSearchParams()
      for (const tag of query.tag ?? []) next.append('tag', tag)
      next.set('sort', query.sort); next.set('limit', String(query.limit)); next.set('cursor', nextCursor)
      reply.header('link', `</articles?${next}>; rel="next"`)
    }
    reply.header('cache-control', PUBLIC_CACHE).header('vary', 'accept-encoding, accept-language').header('content-language', lang)
    return { items: page.map((row) => ({ slug: row.slug, title: row.title, publishedAt: row.published_at.toISOString() })), nextCursor }
  }

  @Get('/:slug', {
    schema: {
      params: { type: 'object', properties: { slug: { type: 'string', pattern: '^[a-z0-9-]{1,80}$' } } },
      produces: ['application/json', 'text/html', 'text/markdown'],
      response: {
        200: { ...Article, headers: CACHE_HEADERS },
        301: { description: 'The article moved: its new slug', headers: { location: { type: 'string' } } },
        304: { description: 'Not Modified: the copy the client holds is current', headers: CACHE_HEADERS },
        406: Problem,
      },
    },
  })
  async one(@Params('slug') slug: string, @Req() request: Request, @Reply() reply: Reply) {
    const negotiated = plugins(request).accepts().type([...TYPES])
    const type = typeof negotiated === "string" ? negotiated : false
    if (type === false) throw new HttpError(406, `Not Acceptable: this resource is available as ${TYPES.join(', ')}`, { code: 'ARTICLE_NOT_ACCEPTABLE' })
    const row = await this.store.find(slug, pickLanguage(request))
    if (row === undefined) {
      const moved = await this.store.movedTo(slug)
      if (moved !== undefined) return reply.code(301).header('cache-control', PUBLIC_CACHE).redirect(`/articles/${moved}`)
      throw new HttpError(404, `No article ${slug}`, { code: 'ARTICLE_NOT_FOUND' })
    }
    const etag = etagOf(row, type)
    reply.header('etag', etag).header('last-modified', row.updated_at.toUTCString())
      .header('cache-control', PUBLIC_CACHE).header('vary', 'accept, accept-encoding, accept-language').header('content-language', row.lang)
    if (notModified(request, etag, row.updated_at)) return reply.code(304).send()
    if (type === 'text/html') return reply.type('text/html; charset=utf-8').send(`<!doctype html><html lang="${row.lang}"><title>${escapeHtml(row.title)}</title><h1>${escapeHtml(row.title)}</h1><main>${escapeHtml(row.body)}</main></html>`)
    if (type === 'text/markdown') return reply.type('text/markdown; charset=utf-8').send(`# ${row.title}\n\n${row.body}\n`)
    return toJson(row)
  }

  @Put('/:slug', {
    schema: {
      params: { type: 'object', properties: { slug: { type: 'string', pattern: '^[a-z0-9-]{1,80}$' } } },
      headers: { type: 'object', properties: { 'if-match': { type: 'string' }, 'if-unmodified-since': { type: 'string' } } },
      body: {
        type: 'object', additionalProperties: false, required: ['title', 'body'],
        properties: { title: { type: 'string', minLength: 1, maxLength: 200 }, body: { type: 'string', maxLength: 100000 }, tags: { type: 'array', items: { type: 'string' }, maxItems: 10 } },
      },
      response: {
        200: { ...Article, headers: { etag: CACHE_HEADERS.etag, 'last-modified': CACHE_HEADERS['last-modified'] } },
        308: { description: 'The article moved: send the PUT to its new slug', headers: { location: { type: 'string' } } },
        412: Problem, 428: Problem,
      },
    },
  })
  @OnRequest(EditorGuard)
  async update(@Params('slug') slug: string, @Body() body: { title: string; body: string; tags?: string[] }, @Req() request: Request, @Reply() reply: Reply) {
    const row = await this.store.find(slug, 'en', true)
    if (row === undefined) {
      const moved = await this.store.movedTo(slug)
      if (moved !== undefined) return reply.code(308).redirect(`/articles/${moved}`)
      throw new HttpError(404, `No article ${slug}`, { code: 'ARTICLE_NOT_FOUND' })
    }
    checkPreconditions(request, etagOf(row, 'application/json'), row.updated_at)
    // The version in the WHERE closes the race between two editors holding the same ETag: one wins, one gets 412.
    await this.db.tx(async (client) => {
      const { rowCount } = await client.query(
        `update articles set version = version + 1, updated_at = greatest(date_trunc('second', now()), updated_at + interval '1 second'),
                tags = coalesce($3, tags) where id = $1 and version = $2`, [row.id, row.version, body.tags ?? null])
      if (rowCount !== 1) throw new HttpError(412, 'The article changed since you read it', { code: 'ARTICLE_PRECONDITION_FAILED' })
      await client.query(`insert into article_texts (article_id, lang, title, body) values ($1, 'en', $2, $3)
        on conflict (article_id, lang) do update set title = excluded.title, body = excluded.body`, [row.id, body.title, body.body])
    })
    const updated = (await this.store.find(slug, 'en', true))!
    await this.cdn.purge([`/articles/${slug}`, '/articles']).catch((error: unknown) => request.log.warn({ err: error }, 'CDN purge failed; copies expire by max-age'))
    reply.header('etag', etagOf(updated, 'application/json')).header('last-modified', updated.updated_at.toUTCString()).header('cache-control', 'no-store')
    return toJson(updated)
  }
}

@Route('/preview')
@OnRequest(EditorGuard)
export class PreviewController {
  constructor(private readonly store: ArticleStore) {}

  @Get('/articles/:slug', { schema: { response: { 200: Article } } })
  async draft(@Params('slug') slug: string, @Req() request: Request, @Reply() reply: Reply) {
    const row = await this.store.find(slug, pickLanguage(request), true)
    if (row === undefined) throw new HttpError(404, `No article ${slug}`, { code: 'ARTICLE_NOT_FOUND' })
    reply.header('cache-control', 'private, no-store')
    return toJson(row)
  }
}
