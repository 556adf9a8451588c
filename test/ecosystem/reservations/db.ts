import { Pool, type PoolClient } from 'pg'
import { injectable } from '../../../src'

export class DbConfig { constructor(readonly url: string) {} }

const MIGRATIONS = [
  'create extension if not exists btree_gist',
  `create table if not exists rooms (
     id serial primary key, city text not null, name text not null, time_zone text not null,
     capacity integer not null check (capacity > 0), amenities text[] not null default '{}',
     opens time not null, closes time not null, open_days integer[] not null default '{1,2,3,4,5}',
     price_cents_per_hour integer not null default 0)`,
  `create table if not exists bookings (
     id bigserial primary key, room_id integer not null references rooms(id), user_id text not null,
     during tstzrange not null, status text not null default 'confirmed', version integer not null default 1,
     price_cents integer not null, fee_cents integer not null default 0, created_at timestamptz not null default now(),
     constraint no_double_booking exclude using gist (room_id with =, during with &&) where (status = 'confirmed'))`,
  `create table if not exists idempotency_keys (
     user_id text not null, key text not null, fingerprint text not null, booking_id bigint references bookings(id),
     primary key (user_id, key))`,
  `create table if not exists waitlist (
     id bigserial primary key, room_id integer not null references rooms(id), user_id text not null,
     during tstzrange not null, status text not null default 'waiting', booking_id bigint references bookings(id),
     created_at timestamptz not null default now())`,
]

@injectable()
export class Db {
  readonly pool: Pool
  constructor(config: DbConfig) { this.pool = new Pool({ connectionString: config.url, max: 10 }) }
  async onModuleInit(): Promise<void> { for (const sql of MIGRATIONS) await this.pool.query(sql) }
  /** After in-flight requests have finished (onModuleDestroy runs before the listener stops). */
  async onClose(): Promise<void> { await this.pool.end() }

  /**
   * One transaction, run again (bounded) when PostgreSQL aborts it as a deadlock (40P01) or a
   * serialization failure (40001): two exclusion-constraint checks can wait on each other (08:00-09:00
   * and 09:00-10:00 in flight while 08:30-09:30 inserts), and PostgreSQL then kills one of them.
   * Run again, it sees the winner and fails with 23P01 (a 409) or succeeds. Whatever `work` does
   * outside the database may run again too: keep such calls after the statement that can deadlock.
   */
  async tx<T>(work: (client: PoolClient) => Promise<T>, attempts = 5): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect()
      try {
        await client.query('begin')
        const result = await work(client)
        await client.query('commit')
        return result
      } catch (error) {
        await client.query('rollback')
        const code = (error as { code?: unknown }).code
        if ((code !== '40P01' && code !== '40001') || attempt >= attempts) throw error
      } finally { client.release() }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt))
    }
  }
}
