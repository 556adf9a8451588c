import { createHash } from 'node:crypto'
import type { PoolClient } from 'pg'
import {
  Body, Delete, Get, Headers, HttpError, OnRequest, Params, Patch, Post, Query, Reply, Req, Route, injectable,
  type Reply as ReplyT, type Request, type SchemaParam,
} from '../../../src'
import { Db } from './db'
import { Clock } from './clock'
import { Payments } from './payments'
import { JwtGuard, RoleGuard, Roles, principal, type Principal } from './auth'
import { BookingPatch, NewBooking, booking, page, problem, waitlistEntry } from './schemas'

export interface BookingRow {
  id: number; roomId: number; userId: string; start: Date; end: Date; status: 'confirmed' | 'cancelled'
  version: number; priceCents: number; feeCents: number
}

const BOOKING_COLUMNS = `b.id::int as id, b.room_id as "roomId", b.user_id as "userId", lower(b.during) as start, upper(b.during) as "end",
  b.status, b.version, b.price_cents as "priceCents", b.fee_cents as "feeCents"`

/** Cancelling earlier than this before the start is free; later costs LATE_FEE_PERCENT of the price. */
export const FREE_CANCELLATION_HOURS = 24
export const LATE_FEE_PERCENT = 50

export const etagOf = (b: Pick<BookingRow, 'id' | 'version'>): string => `"b${b.id}-v${b.version}"`

/** If-Match uses the strong comparison (RFC 9110 §13.1.1): a weak tag never matches; `*` matches any booking. */
export function ifMatchAccepts(header: string, etag: string): boolean {
  return header.split(',').map((tag) => tag.trim()).some((tag) => tag === '*' || tag === etag)
}

@injectable()
export class BookingService {
  constructor(private readonly db: Db, private readonly clock: Clock, private readonly payments: Payments) {}

  /** Checks the range against the room's opening hours in the room's own zone; returns the price. */
  private async priceFor(client: PoolClient, roomId: number, start: string, end: string): Promise<number> {
    const { rows } = await client.query(
      `select r.price_cents_per_hour as rate,
              extract(epoch from ($3::timestamptz - $2::timestamptz)) / 60 as minutes,
              ($2::timestamptz at time zone r.time_zone)::date = ($3::timestamptz at time zone r.time_zone)::date
                and ($2::timestamptz at time zone r.time_zone)::time >= r.opens
                and ($3::timestamptz at time zone r.time_zone)::time <= r.closes
                and extract(isodow from ($2::timestamptz at time zone r.time_zone))::int = any(r.open_days) as open
         from rooms r where r.id = $1 for update`, [roomId, start, end])   // writers of one room take turns: see lockRoomOf
    if (rows.length === 0) throw new HttpError(404, `No room ${roomId}`, { code: 'ROOM_NOT_FOUND' })
    const { rate, minutes, open } = rows[0] as { rate: number; minutes: string; open: boolean }
    if (Number(minutes) < 15) throw new HttpError(422, 'end must be at least 15 minutes after start', { code: 'BOOKING_TOO_SHORT' })
    if (!open) throw new HttpError(422, "The room is closed for part of this range (opening hours are in the room's time zone)", { code: 'BOOKING_OUTSIDE_HOURS' })
    if (new Date(start).getTime() <= this.clock.now().getTime()) throw new HttpError(422, 'start is in the past', { code: 'BOOKING_IN_PAST' })
    return Math.ceil((rate * Number(minutes)) / 60)
  }

  private async insert(client: PoolClient, userId: string, input: NewBooking): Promise<BookingRow> {
    const price = await this.priceFor(client, input.roomId, input.start, input.end)
    const { rows } = await client.query(
      `insert into bookings as b (room_id, user_id, during, price_cents) values ($1, $2, tstzrange($3, $4, '[)'), $5) returning ${BOOKING_COLUMNS}`,
      [input.roomId, userId, input.start, input.end, price])
    const created = rows[0] as BookingRow
    if (price > 0) await this.payments.charge(userId, price, `booking:${created.id}`)
    return created
  }

  /**
   * One transaction: the idempotency key, the booking and the charge. The exclusion constraint
   * refuses an overlapping booking (23P01, a 409) even when two arrive at once: the second insert
   * waits for the first transaction and fails when it commits.
   */
  async book(user: Principal, input: NewBooking, key: string | undefined): Promise<{ booking: BookingRow; replayed: boolean }> {
    return this.db.tx(async (client) => {
      if (key !== undefined) {
        const fingerprint = createHash('sha256').update(JSON.stringify([input.roomId, input.start, input.end])).digest('hex')
        const { rows } = await client.query(
          `insert into idempotency_keys (user_id, key, fingerprint) values ($1, $2, $3)
           on conflict (user_id, key) do update set key = excluded.key returning booking_id::int as "bookingId", fingerprint`,
          [user.sub, key, fingerprint])
        const claimed = rows[0] as { bookingId: number | null; fingerprint: string }
        if (claimed.fingerprint !== fingerprint) throw new HttpError(422, 'This Idempotency-Key was used with another request body', { code: 'IDEMPOTENCY_KEY_REUSED' })
        if (claimed.bookingId !== null) return { booking: await this.find(client, claimed.bookingId), replayed: true }
      }
      const created = await this.insert(client, user.sub, input)
      if (key !== undefined) await client.query('update idempotency_keys set booking_id = $3 where user_id = $1 and key = $2', [user.sub, key, created.id])
      return { booking: created, replayed: false }
    })
  }

  private async find(client: PoolClient, id: number, lock = false): Promise<BookingRow> {
    const { rows } = await client.query(`select ${BOOKING_COLUMNS} from bookings b where b.id = $1${lock ? ' for update' : ''}`, [id])
    if (rows.length === 0) throw new HttpError(404, `No booking ${id}`, { code: 'BOOKING_NOT_FOUND' })
    return rows[0] as BookingRow
  }

  /**
   * Every transaction that writes a room's bookings locks the room's row first. Without it two
   * inserts of overlapping ranges each wait on the other's uncommitted row while checking the
   * exclusion constraint: PostgreSQL then aborts one as a deadlock (40P01) after deadlock_timeout
   * (1 s), again and again under a burst. With it they queue per room; the constraint still decides.
   */
  private async lockRoomOf(client: PoolClient, bookingId: number): Promise<void> {
    await client.query('select 1 from rooms where id = (select room_id from bookings where id = $1) for update', [bookingId])
  }

  /** A member sees only their own bookings (another's is a 404, not a 403); an admin sees all. */
  async get(user: Principal, id: number, client?: PoolClient, lock = false): Promise<BookingRow> {
    if (client !== undefined && lock) await this.lockRoomOf(client, id)
    const found = await (client === undefined ? this.db.tx((c) => this.find(c, id)) : this.find(client, id, lock))
    if (user.role !== 'admin' && found.userId !== user.sub) throw new HttpError(404, `No booking ${id}`, { code: 'BOOKING_NOT_FOUND' })
    return found
  }

  async list(user: Principal, limit: number, offset: number) {
    const { rows } = await this.db.pool.query(
      `select ${BOOKING_COLUMNS}, count(*) over () as total from bookings b where $1::text is null or b.user_id = $1
       order by lower(b.during), b.id limit $2 offset $3`, [user.role === 'admin' ? null : user.sub, limit, offset])
    return { items: rows as BookingRow[], total: rows.length === 0 ? 0 : Number(rows[0].total), limit, offset }
  }

  async move(user: Principal, id: number, ifMatch: string, input: BookingPatch): Promise<BookingRow> {
    return this.db.tx(async (client) => {
      const current = await this.get(user, id, client, true)
      if (!ifMatchAccepts(ifMatch, etagOf(current))) {
        throw new HttpError(412, 'The booking changed since you read it: GET it again and retry with its ETag', { code: 'BOOKING_PRECONDITION_FAILED', details: { etag: etagOf(current) } })
      }
      if (current.status !== 'confirmed') throw new HttpError(409, 'A cancelled booking cannot be moved', { code: 'BOOKING_CANCELLED' })
      const price = await this.priceFor(client, current.roomId, input.start, input.end)
      const { rows } = await client.query(
        `update bookings b set during = tstzrange($2, $3, '[)'), price_cents = $4, version = version + 1 where b.id = $1 returning ${BOOKING_COLUMNS}`,
        [id, input.start, input.end, price])
      return rows[0] as BookingRow
    })
  }

  /**
   * The policy: free until FREE_CANCELLATION_HOURS before the start, LATE_FEE_PERCENT after that,
   * refused once started. The freed range goes to the oldest waitlist entry it now fits.
   */
  async cancel(user: Principal, id: number): Promise<BookingRow> {
    return this.db.tx(async (client) => {
      const current = await this.get(user, id, client, true)
      if (current.status !== 'confirmed') throw new HttpError(409, 'Already cancelled', { code: 'BOOKING_CANCELLED' })
      const msBefore = current.start.getTime() - this.clock.now().getTime()
      if (msBefore <= 0) throw new HttpError(409, 'The booking has started and can no longer be cancelled', { code: 'BOOKING_STARTED' })
      const fee = msBefore >= FREE_CANCELLATION_HOURS * 3600_000 ? 0 : Math.ceil((current.priceCents * LATE_FEE_PERCENT) / 100)
      const { rows } = await client.query(
        `update bookings b set status = 'cancelled', fee_cents = $2, version = version + 1 where b.id = $1 returning ${BOOKING_COLUMNS}`, [id, fee])
      await this.promoteWaitlist(client, current.roomId)
      // Last, after every statement that can fail or deadlock: a retried transaction (db.tx) or a
      // rolled-back one must not have refunded already.
      if (current.priceCents - fee > 0) await this.payments.refund(`booking:${id}`, current.priceCents - fee)
      return rows[0] as BookingRow
    })
  }

  private async promoteWaitlist(client: PoolClient, roomId: number): Promise<void> {
    const { rows } = await client.query(
      `select w.id, w.user_id as "userId", lower(w.during) as start, upper(w.during) as "end" from waitlist w
        where w.room_id = $1 and w.status = 'waiting' and lower(w.during) > $2
          and not exists (select 1 from bookings b where b.room_id = w.room_id and b.status = 'confirmed' and b.during && w.during)
        order by w.created_at, w.id limit 1 for update skip locked`, [roomId, this.clock.now()])
    if (rows.length === 0) return
    const entry = rows[0] as { id: number; userId: string; start: Date; end: Date }
    await client.query('savepoint promote')
    try {
      const created = await this.insert(client, entry.userId, { roomId, start: entry.start.toISOString(), end: entry.end.toISOString() })
      await client.query(`update waitlist set status = 'booked', booking_id = $2 where id = $1`, [entry.id, created.id])
    } catch (error) {
      // Someone else booked it meanwhile (23P01), or the waitlisted user's charge failed: the
      // cancellation still stands and the entry keeps waiting. Any other database error (a deadlock
      // to retry) fails the whole transaction.
      await client.query('rollback to savepoint promote')
      const sqlState = error instanceof Error && 'code' in error && typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code) ? error.code : null
      if (sqlState !== null && sqlState !== '23P01') throw error
    }
  }

  async joinWaitlist(user: Principal, input: NewBooking) {
    return this.db.tx(async (client) => {
      await this.priceFor(client, input.roomId, input.start, input.end)
      const { rows: taken } = await client.query(
        `select 1 from bookings where room_id = $1 and status = 'confirmed' and during && tstzrange($2, $3, '[)')`, [input.roomId, input.start, input.end])
      if (taken.length === 0) throw new HttpError(409, 'This range is free: book it instead', { code: 'WAITLIST_SLOT_FREE' })
      const { rows } = await client.query(
        `insert into waitlist (room_id, user_id, during) values ($1, $2, tstzrange($3, $4, '[)'))
         returning id::int as id, room_id as "roomId", lower(during) as start, upper(during) as "end", status, booking_id::int as "bookingId"`,
        [input.roomId, user.sub, input.start, input.end])
      return rows[0]
    })
  }

  async waitlistOf(user: Principal) {
    const { rows } = await this.db.pool.query(
      `select id::int as id, room_id as "roomId", lower(during) as start, upper(during) as "end", status, booking_id::int as "bookingId"
         from waitlist where user_id = $1 order by id`, [user.sub])
    return rows
  }
}

const idParam = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const

@OnRequest(JwtGuard, RoleGuard)
@Roles(['member', 'admin'])
@Route('/')
export class BookingsController {
  constructor(private readonly bookings: BookingService) {}

  @Post('bookings', {
    schema: {
      summary: 'Book a room',
      headers: { type: 'object', properties: { 'idempotency-key': { type: 'string', minLength: 8, maxLength: 128 } } },
      body: NewBooking, response: { 201: booking, 404: problem, 409: problem, 422: problem },
    },
  })
  async book(@Req() request: Request, @Body() body: NewBooking, @Headers('idempotency-key') key: string | undefined, @Reply() reply: ReplyT) {
    const { booking: created, replayed } = await this.bookings.book(principal(request), body, key)
    reply.code(201).header('etag', etagOf(created)).header('location', `/bookings/${created.id}`)
    if (replayed) reply.header('idempotent-replayed', 'true')
    return created
  }

  @Get('bookings', { schema: { summary: 'My bookings', querystring: page, response: { 200: { type: 'object', required: ['items', 'total', 'limit', 'offset'], properties: { items: { type: 'array', items: booking }, total: { type: 'integer' }, limit: { type: 'integer' }, offset: { type: 'integer' } } } } } })
  list(@Req() request: Request, @Query('limit') limit: number, @Query('offset') offset: number) {
    return this.bookings.list(principal(request), limit, offset)
  }

  @Get('bookings/:id', { schema: { summary: 'One booking, with its ETag', params: idParam, response: { 200: booking, 404: problem } } })
  async get(@Req() request: Request, @Params('id') id: SchemaParam<number>, @Reply() reply: ReplyT) {
    const found = await this.bookings.get(principal(request), id)
    reply.header('etag', etagOf(found))
    return found
  }

  @Patch('bookings/:id', {
    schema: {
      summary: 'Move a booking (If-Match required)',
      params: idParam, body: BookingPatch,
      headers: { type: 'object', properties: { 'if-match': { type: 'string' } } },
      response: { 200: booking, 404: problem, 409: problem, 412: problem, 422: problem, 428: problem },
    },
  })
  async move(@Req() request: Request, @Params('id') id: SchemaParam<number>, @Body() body: BookingPatch, @Headers('if-match') ifMatch: string | undefined, @Reply() reply: ReplyT) {
    if (ifMatch === undefined) throw new HttpError(428, 'Send If-Match with the ETag of GET /bookings/:id', { code: 'BOOKING_PRECONDITION_REQUIRED' })
    const moved = await this.bookings.move(principal(request), id, ifMatch, body)
    reply.header('etag', etagOf(moved))
    return moved
  }

  @Delete('bookings/:id', { schema: { summary: 'Cancel a booking (the policy decides the fee)', params: idParam, response: { 200: booking, 404: problem, 409: problem } } })
  cancel(@Req() request: Request, @Params('id') id: SchemaParam<number>) {
    return this.bookings.cancel(principal(request), id)
  }

  @Post('waitlist', { schema: { summary: 'Wait for a taken range', body: NewBooking, response: { 201: waitlistEntry, 404: problem, 409: problem, 422: problem } } })
  async join(@Req() request: Request, @Body() body: NewBooking, @Reply() reply: ReplyT) {
    reply.code(201)
    return this.bookings.joinWaitlist(principal(request), body)
  }

  @Get('waitlist', { schema: { summary: 'My waitlist entries', response: { 200: { type: 'array', items: waitlistEntry } } } })
  waitlist(@Req() request: Request) {
    return this.bookings.waitlistOf(principal(request))
  }
}
