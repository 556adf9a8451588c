import { Body, Get, HttpError, Post, Query, Reply, Route, injectable, OnRequest, type Reply as ReplyT, type SchemaType } from '../../../src'
import { Db } from './db'
import { JwtGuard, RoleGuard, Roles } from './auth'
import { NewRoom, page, room, slot, slotQuery } from './schemas'

const ROOM_COLUMNS = `id, city, name, time_zone as "timeZone", capacity, amenities, to_char(opens, 'HH24:MI') as opens,
  to_char(closes, 'HH24:MI') as closes, open_days as "openDays", price_cents_per_hour as "priceCentsPerHour"`

export function isTimeZone(zone: string): boolean {
  try { new Intl.DateTimeFormat('en-US', { timeZone: zone }); return true } catch { return false }
}

@injectable()
export class RoomStore {
  constructor(private readonly db: Db) {}

  async create(input: NewRoom): Promise<SchemaType<typeof room>> {
    const { rows } = await this.db.pool.query(
      `insert into rooms (city, name, time_zone, capacity, amenities, opens, closes, open_days, price_cents_per_hour)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning ${ROOM_COLUMNS}`,
      [input.city, input.name, input.timeZone, input.capacity, input.amenities, input.opens, input.closes, input.openDays, input.priceCentsPerHour])
    return rows[0]
  }

  async list(city: string | undefined, limit: number, offset: number) {
    const { rows } = await this.db.pool.query(
      `select ${ROOM_COLUMNS}, count(*) over () as total from rooms where $1::text is null or city = $1 order by id limit $2 offset $3`,
      [city ?? null, limit, offset])
    return { items: rows, total: rows.length === 0 ? 0 : Number(rows[0].total), limit, offset }
  }

  /**
   * Free slots on one local date in each room's own zone: the opening hours are wall-clock times,
   * so `(date + opens) at time zone tz` gives the instant, DST included (08:00 in Berlin is 07:00Z
   * in winter, 06:00Z in summer).
   */
  async freeSlots(q: SchemaType<typeof slotQuery>) {
    const { rows } = await this.db.pool.query(
      `select r.id as "roomId", (s.local_start at time zone r.time_zone) as start,
              ((s.local_start + make_interval(mins => $3)) at time zone r.time_zone) as "end",
              to_char(s.local_start, 'YYYY-MM-DD"T"HH24:MI') as "localStart", count(*) over () as total
         from rooms r,
              lateral generate_series($2::date + r.opens, $2::date + r.closes - make_interval(mins => $3), interval '15 minutes') as s(local_start)
        where r.city = $1 and r.capacity >= $4 and r.amenities @> $5::text[]
          and extract(isodow from $2::date)::int = any(r.open_days)
          and not exists (select 1 from bookings b where b.room_id = r.id and b.status = 'confirmed'
                and b.during && tstzrange(s.local_start at time zone r.time_zone, (s.local_start + make_interval(mins => $3)) at time zone r.time_zone))
        order by start, r.id limit $6 offset $7`,
      [q.city, q.date, q.duration, q.capacity, q.amenities, q.limit, q.offset])
    return { items: rows, total: rows.length === 0 ? 0 : Number(rows[0].total), limit: q.limit, offset: q.offset }
  }
}

const listOf = <T extends object>(items: T) => ({
  type: 'object', additionalProperties: false, required: ['items', 'total', 'limit', 'offset'],
  properties: { items: { type: 'array', items }, total: { type: 'integer' }, limit: { type: 'integer' }, offset: { type: 'integer' } },
} as const)

@OnRequest(JwtGuard, RoleGuard)
@Roles(['guest', 'member', 'admin'])
@Route('/')
export class RoomsController {
  constructor(private readonly rooms: RoomStore) {}

  @Roles(['admin'])
  @Post('rooms', { schema: { summary: 'Create a room (admin)', body: NewRoom, response: { 201: room } } })
  async create(@Body() body: NewRoom, @Reply() reply: ReplyT) {
    if (!isTimeZone(body.timeZone)) throw new HttpError(400, `body/timeZone is not an IANA time zone: ${body.timeZone}`, { code: 'ROOM_BAD_TIME_ZONE' })
    if (body.closes <= body.opens) throw new HttpError(400, 'body/closes must be after body/opens', { code: 'ROOM_BAD_HOURS' })
    reply.code(201)
    return this.rooms.create(body)
  }

  @Get('rooms', {
    schema: {
      summary: 'List rooms',
      querystring: { ...page, properties: { ...page.properties, city: { type: 'string' } } },
      response: { 200: listOf(room) },
    },
  })
  list(@Query() q: { city?: string; limit: number; offset: number }) {
    return this.rooms.list(q.city, q.limit, q.offset)
  }

  @Get('slots', { schema: { summary: 'Free slots on a local date', querystring: slotQuery, response: { 200: listOf(slot) } } })
  slots(@Query() q: SchemaType<typeof slotQuery>) {
    return this.rooms.freeSlots(q)
  }
}
