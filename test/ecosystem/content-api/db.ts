// The content API's pool and schema (docs/recipes-content-api.md): authors, articles with a version
// and an updated_at for the validators, one text per language, and the old slugs of moved articles.
import { Pool, type PoolClient } from 'pg'
import { injectable } from '../../../src'

export class DbConfig { constructor(readonly url: string) {} }

const MIGRATIONS = [
  `create table if not exists authors (id serial primary key, slug text unique not null, name text not null)`,
  `create table if not exists articles (
     id serial primary key, slug text unique not null, author_id integer not null references authors(id),
     status text not null default 'draft' check (status in ('draft', 'published')),
     tags text[] not null default '{}', published_at timestamptz, updated_at timestamptz not null default date_trunc('second', now()),
     version integer not null default 1)`,
  `create table if not exists article_texts (
     article_id integer not null references articles(id), lang text not null, title text not null, body text not null,
     primary key (article_id, lang))`,
  `create table if not exists slug_redirects (old_slug text primary key, article_id integer not null references articles(id))`,
]

@injectable()
export class Db {
  readonly pool: Pool
  lastIdleError: Error | null = null
  constructor(config: DbConfig) {
    this.pool = new Pool({ connectionString: config.url, max: 10 })
    // An idle client's error (the database restarted) would otherwise end the process; the next query reconnects.
    this.pool.on('error', (error) => { this.lastIdleError = error })
  }
  async onModuleInit(): Promise<void> { for (const sql of MIGRATIONS) await this.pool.query(sql) }
  async onClose(): Promise<void> { await this.pool.end() }

  async tx<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect()
    try {
      await client.query('begin')
      const result = await work(client)
      await client.query('commit')
      return result
    } catch (error) {
      await client.query('rollback')
      throw error
    } finally { client.release() }
  }
}
