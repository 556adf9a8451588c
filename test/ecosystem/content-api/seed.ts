// Test data for the content API: two authors, eleven published articles and one draft, a French text, a moved slug.
import { Client } from 'pg'
export async function seed(url: string): Promise<void> {
  const client = new Client({ connectionString: url })
  await client.connect()
  await client.query(`insert into authors (slug, name) values ('ada', 'Ada L'), ('bob', 'Bob K')`)
  for (let i = 1; i <= 12; i++) {
    const { rows } = await client.query(`insert into articles (slug, author_id, status, tags, published_at, updated_at)
      values ($1, $2, $3, $4, $5, $5) returning id`,
      [`story-${i}`, 1 + (i % 2), i === 12 ? 'draft' : 'published', i % 3 === 0 ? ['politics'] : ['science', 'tech'], new Date(Date.UTC(2026, 0, i, 10))])
    await client.query(`insert into article_texts values ($1, 'en', $2, $3)`, [rows[0].id, `Story ${i}`, `Body of story ${i}. `.repeat(40)])
    if (i === 1) await client.query(`insert into article_texts values ($1, 'fr', $2, $3)`, [rows[0].id, `Histoire 1`, `Corps. `.repeat(40)])
  }
  await client.query(`insert into slug_redirects values ('old-story-1', 1)`)
  await client.end()
}
