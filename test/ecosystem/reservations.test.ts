// The reservations service of docs/recipes-reservations.md over real HTTP on a real PostgreSQL
// (started by this file on a free loopback port, stopped by pid): rooms with opening hours in
// their own IANA zone across DST, free-slot search from the query string, bookings that never
// overlap under concurrent attempts (an exclusion constraint), Idempotency-Key on POST, If-Match
// on PATCH (428 without, 412 stale), a cancellation policy decided by an injected clock, a
// waitlist, JWT roles with @fastify/jwt, and the OpenAPI document checked by a validator. The
// clock and the payment provider are replaced through createApp's `overrides`.
import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import { Client } from 'pg'
import { SignJWT } from 'jose'
import { Validator } from '@seriousme/openapi-schema-validator'
import { createApp, override, resolveProvider, type App } from '../../src'
import { startPostgres, stopPostgres, untilOnlyConnection, type Postgres } from './postgres/processes'
import { appOptions, reservationsModule } from './reservations/app-module'
import { Clock } from './reservations/clock'
import { Payments, type Charge } from './reservations/payments'

const SECRET = 'reservations-test-secret'
const key = new TextEncoder().encode(SECRET)
async function bearer(sub: string, role: string): Promise<string> {
  return `Bearer ${await new SignJWT({ role }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuedAt().sign(key)}`
}

class FakeClock { current = new Date('2026-03-20T09:00:00Z'); now(): Date { return this.current } }
class FakePayments {
  charges: Charge[] = []
  refunds: Array<{ reference: string; cents: number }> = []
  async charge(userId: string, cents: number, reference: string): Promise<Charge> {
    const charge = { id: `ch_${this.charges.length + 1}`, userId, cents, reference }
    this.charges.push(charge)
    return charge
  }
  async refund(reference: string, cents: number): Promise<void> { this.refunds.push({ reference, cents }) }
}

describe('a reservations service (docs/recipes-reservations.md) on a real PostgreSQL', function () {
  this.timeout(60_000)
  let pg: Postgres | undefined
  let app: App
  let clock: FakeClock
  let payments: FakePayments
  let admin: string, bob: string, cy: string, guest: string
  let berlin: number, newYork: number

  before(async function () {
    this.timeout(120_000)
    pg = await startPostgres()
    clock = new FakeClock()
    payments = new FakePayments()
    app = await createApp(reservationsModule({ databaseUrl: pg.url, jwtSecret: SECRET }), {
      ...appOptions,
      overrides: [override(Clock, { useValue: clock }), override(Payments, { useValue: payments })],
    })
    ;[admin, bob, cy, guest] = await Promise.all([bearer('ada', 'admin'), bearer('bob', 'member'), bearer('cy', 'member'), bearer('dee', 'guest')])
    const room = (body: object) => request(app.server).post('/rooms').set('authorization', admin).send(body).expect(201)
    berlin = (await room({ city: 'Berlin', name: 'Spree', timeZone: 'Europe/Berlin', capacity: 6, amenities: ['wifi', 'projector'],
      opens: '08:00', closes: '18:00', openDays: [1, 2, 3, 4, 5, 6, 7], priceCentsPerHour: 2000 })).body.id
    await room({ city: 'Berlin', name: 'Havel', timeZone: 'Europe/Berlin', capacity: 2, amenities: ['wifi'], opens: '08:00', closes: '18:00' })
    newYork = (await room({ city: 'New York', name: 'Hudson', timeZone: 'America/New_York', capacity: 10, amenities: ['video'],
      opens: '09:00', closes: '17:00', openDays: [1, 2, 3, 4, 5, 6, 7] })).body.id
  })

  after(async () => {
    await app?.close()
    if (pg !== undefined) await untilOnlyConnection(pg.url)
    await stopPostgres(pg)
  })

  it('serves an OpenAPI document the validator accepts: the bearer scheme, 401/403 from the guards, each route\'s declared 4xx', async () => {
    const doc = (await request(app.server).get('/openapi.json').expect(200)).body
    const result = await new Validator().validate(doc)
    expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined)
    expect(result.valid).to.equal(true)
    const patch = doc.paths['/bookings/{id}'].patch
    expect(Object.keys(patch.responses)).to.include.members(['200', '401', '403', '404', '409', '412', '422', '428'])
    expect(patch.security).to.deep.equal([{ bearerAuth: [] }])
    expect(patch.parameters.map((p: { name: string }) => p.name)).to.include('if-match')
    expect(doc.paths['/bookings'].post.parameters.map((p: { name: string }) => p.name)).to.include('idempotency-key')
  })

  it('roles: only an admin creates a room (403 for a member, 401 without a token); an unknown IANA zone is a coded 400', async () => {
    const room = { city: 'Paris', name: 'Seine', timeZone: 'Europe/Paris', capacity: 4, opens: '08:00', closes: '18:00' }
    await request(app.server).post('/rooms').set('authorization', bob).send(room).expect(403)
    await request(app.server).post('/rooms').send(room).expect(401)
    const bad = await request(app.server).post('/rooms').set('authorization', admin).send({ ...room, timeZone: 'Europe/Pariss' }).expect(400)
    expect(bad.body).to.include({ code: 'ROOM_BAD_TIME_ZONE' })
    await request(app.server).post('/bookings').set('authorization', guest)
      .send({ roomId: berlin, start: '2026-04-02T08:00:00Z', end: '2026-04-02T09:00:00Z' }).expect(403)
  })

  it('slots: opening hours are wall-clock times in the room\'s zone, so 08:00 in Berlin is 07:00Z before the DST change and 06:00Z after', async () => {
    const slots = (date: string) => request(app.server).get('/slots').query({ city: 'Berlin', date, duration: 60, amenities: 'projector' }).set('authorization', guest).expect(200)
    const before = (await slots('2026-03-28')).body
    expect(before.items[0]).to.deep.equal({ roomId: berlin, start: '2026-03-28T07:00:00.000Z', end: '2026-03-28T08:00:00.000Z', localStart: '2026-03-28T08:00' })
    const after = (await slots('2026-03-29')).body
    expect(after.items[0]).to.deep.equal({ roomId: berlin, start: '2026-03-29T06:00:00.000Z', end: '2026-03-29T07:00:00.000Z', localStart: '2026-03-29T08:00' })
    expect(after.total).to.equal(37)                 // 08:00 to 17:00 every 15 minutes, one room has a projector
    const ny = (await request(app.server).get('/slots?city=New%20York&date=2026-03-08&duration=480').set('authorization', guest).expect(200)).body
    expect(ny.items).to.deep.equal([{ roomId: newYork, start: '2026-03-08T13:00:00.000Z', end: '2026-03-08T21:00:00.000Z', localStart: '2026-03-08T09:00' }])
  })

  it('slots: the query string is validated: one ?amenities= value is an array, dates are checked against the calendar, a page is bounded', async () => {
    const both = (await request(app.server).get('/slots?city=Berlin&date=2026-04-01&duration=60&amenities=wifi&capacity=2&limit=5').set('authorization', guest).expect(200)).body
    expect(both.items).to.have.length(5)
    expect(both.total).to.equal(74)                  // two rooms with wifi
    const wide = (await request(app.server).get('/slots?city=Berlin&date=2026-04-01&duration=60&capacity=3&offset=30').set('authorization', guest).expect(200)).body
    expect(wide).to.include({ total: 37, offset: 30 })
    expect(wide.items).to.have.length(7)
    for (const [query, message] of [
      ['date=2026-02-30&duration=60', 'querystring/date should match format "date"'],
      ['date=2026-13-01&duration=60', 'querystring/date should match format "date"'],
      ['date=2026-04-01&duration=50', 'querystring/duration should be multiple of 15'],
      ['date=2026-04-01&duration=60&amenities=sauna', 'querystring/amenities/0 should be equal to one of the allowed values'],
      ['date=2026-04-01&duration=60&limit=101', 'querystring/limit should be <= 100'],
    ]) {
      const res = await request(app.server).get(`/slots?city=Berlin&${query}`).set('authorization', guest)
      expect([res.status, res.body.message], query).to.deep.equal([400, message])
    }
  })

  it('bookings: concurrent attempts over real loopback connections never double-book (one winner per range, the rest 409, no overlap in the table)', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const post = (token: string, start: string, end: string) => fetch(`${address}/bookings`, {
      method: 'POST', headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ roomId: berlin, start, end }), signal: AbortSignal.timeout(30_000),
    }).then(async (res) => ({ status: res.status, body: await res.json() as { code?: string } }))
    const same = await Promise.all(Array.from({ length: 12 }, (_, i) => post(i % 2 === 0 ? bob : cy, '2026-04-06T08:00:00Z', '2026-04-06T09:00:00Z')))
    expect(same.filter((r) => r.status === 201)).to.have.length(1)
    expect(same.filter((r) => r.status === 409 && r.body.code === 'BOOKING_CONFLICT')).to.have.length(11)
    const ranges = [['08:00', '09:00'], ['08:30', '09:30'], ['09:00', '10:00']] as const
    const mixed = await Promise.all(Array.from({ length: 24 }, (_, i) => post(i % 2 === 0 ? bob : cy,
      `2026-04-07T${ranges[i % 3]![0]}:00Z`, `2026-04-07T${ranges[i % 3]![1]}:00Z`)))
    expect(mixed.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'BOOKING_CONFLICT')), JSON.stringify(mixed)).to.equal(true)
    const winners = mixed.filter((r) => r.status === 201).length
    expect(winners).to.be.within(1, 2)               // 08:30-09:30 alone, or 08:00-09:00 and 09:00-10:00
    const db = new Client({ connectionString: pg!.url })
    await db.connect()
    try {
      const { rows } = await db.query<{ overlaps: number; confirmed: number }>(
        `select (select count(*)::int from bookings a join bookings b on a.id < b.id and a.room_id = b.room_id and a.during && b.during
                  where a.status = 'confirmed' and b.status = 'confirmed') as overlaps,
                (select count(*)::int from bookings where status = 'confirmed' and lower(during)::date in ('2026-04-06', '2026-04-07')) as confirmed`)
      expect(rows[0]).to.deep.equal({ overlaps: 0, confirmed: 1 + winners })
    } finally { await db.end() }
  })

  it('Idempotency-Key: the same key and body answer the same booking once (also at once), another body with it is a coded 422', async () => {
    const body = { roomId: berlin, start: '2026-04-08T08:00:00+02:00', end: '2026-04-08T09:30:00+02:00' }
    const charged = payments.charges.length
    const [a, b] = await Promise.all([1, 2].map(() => request(app.server).post('/bookings').set('authorization', bob).set('idempotency-key', 'order-0001').send(body)))
    expect([a!.status, b!.status]).to.deep.equal([201, 201])
    expect(a!.body.id).to.equal(b!.body.id)
    expect([a!.headers['idempotent-replayed'], b!.headers['idempotent-replayed']]).to.include('true')
    expect(a!.body).to.include({ priceCents: 3000, start: '2026-04-08T06:00:00.000Z' })
    expect(payments.charges.length - charged).to.equal(1)
    const reused = await request(app.server).post('/bookings').set('authorization', bob).set('idempotency-key', 'order-0001').send({ ...body, roomId: newYork }).expect(422)
    expect(reused.body).to.include({ code: 'IDEMPOTENCY_KEY_REUSED' })
    // Keys are per user: the same key from another member is another booking attempt (here a conflict).
    await request(app.server).post('/bookings').set('authorization', cy).set('idempotency-key', 'order-0001').send(body).expect(409)
  })

  it('PATCH: 428 without If-Match, 412 with a stale or weak ETag (strong comparison), 200 and a new ETag with the current one', async () => {
    const created = await request(app.server).post('/bookings').set('authorization', bob)
      .send({ roomId: berlin, start: '2026-04-09T10:00:00Z', end: '2026-04-09T11:00:00Z' }).expect(201)
    const path = `/bookings/${created.body.id}`
    const etag = (await request(app.server).get(path).set('authorization', bob).expect(200)).headers.etag as string
    expect(etag).to.equal(created.headers.etag)
    const move = { start: '2026-04-09T12:00:00Z', end: '2026-04-09T13:00:00Z' }
    expect((await request(app.server).patch(path).set('authorization', bob).send(move).expect(428)).body).to.include({ code: 'BOOKING_PRECONDITION_REQUIRED' })
    const stale = await request(app.server).patch(path).set('authorization', bob).set('if-match', '"b1-v99"').send(move).expect(412)
    expect(stale.body).to.deep.include({ code: 'BOOKING_PRECONDITION_FAILED', details: { etag } })
    await request(app.server).patch(path).set('authorization', bob).set('if-match', `W/${etag}`).send(move).expect(412)
    const moved = await request(app.server).patch(path).set('authorization', bob).set('if-match', `"x", ${etag}`).send(move).expect(200)
    expect(moved.body).to.include({ start: '2026-04-09T12:00:00.000Z', version: 2 })
    expect(moved.headers.etag).to.not.equal(etag)
    await request(app.server).patch(path).set('authorization', bob).set('if-match', etag).send(move).expect(412)
    await request(app.server).patch(path).set('authorization', bob).set('if-match', '*').send({ start: '2026-04-09T18:00:00Z', end: '2026-04-09T19:00:00Z' }).expect(422)
    await request(app.server).get(path).set('authorization', cy).expect(404)   // another member's booking does not exist for cy
    await request(app.server).get(path).set('authorization', admin).expect(200)
  })

  it('cancellation policy by the injected clock: free 24 h before, half the price later, refused once started; the freed range goes to the waitlist', async () => {
    clock.current = new Date('2026-04-10T09:00:00Z')
    const book = (token: string, day: string) => request(app.server).post('/bookings').set('authorization', token)
      .send({ roomId: berlin, start: `${day}T08:00:00Z`, end: `${day}T09:00:00Z` }).expect(201)
    const early = await book(bob, '2026-04-12')
    const free = await request(app.server).delete(`/bookings/${early.body.id}`).set('authorization', bob).expect(200)
    expect(free.body).to.include({ status: 'cancelled', feeCents: 0 })
    expect(payments.refunds.at(-1)).to.deep.equal({ reference: `booking:${early.body.id}`, cents: 2000 })

    const late = await book(bob, '2026-04-11')
    const waiting = await request(app.server).post('/waitlist').set('authorization', cy)
      .send({ roomId: berlin, start: '2026-04-11T08:00:00Z', end: '2026-04-11T09:00:00Z' }).expect(201)
    expect(waiting.body).to.include({ status: 'waiting' })
    await request(app.server).post('/waitlist').set('authorization', cy)
      .send({ roomId: berlin, start: '2026-04-11T10:00:00Z', end: '2026-04-11T11:00:00Z' }).expect(409)   // free: book it
    const fee = await request(app.server).delete(`/bookings/${late.body.id}`).set('authorization', bob).expect(200)
    expect(fee.body).to.include({ status: 'cancelled', feeCents: 1000 })
    expect(payments.refunds.at(-1)).to.deep.equal({ reference: `booking:${late.body.id}`, cents: 1000 })
    const [entry] = (await request(app.server).get('/waitlist').set('authorization', cy).expect(200)).body
    expect(entry).to.include({ status: 'booked' })
    const promoted = (await request(app.server).get(`/bookings/${entry.bookingId}`).set('authorization', cy).expect(200)).body
    expect(promoted).to.include({ userId: 'cy', status: 'confirmed', start: '2026-04-11T08:00:00.000Z' })

    clock.current = new Date('2026-04-11T08:30:00Z')
    const started = await request(app.server).delete(`/bookings/${entry.bookingId}`).set('authorization', cy).expect(409)
    expect(started.body).to.include({ code: 'BOOKING_STARTED' })
    await request(app.server).post('/bookings').set('authorization', cy)
      .send({ roomId: berlin, start: '2026-04-11T08:00:00Z', end: '2026-04-11T08:15:00Z' }).expect(422)   // in the past now
    expect(resolveProvider(app, Clock)).to.equal(clock)
  })

  it('bookings: outside the opening hours in the room\'s zone is a coded 422; a booking list pages with limit and offset', async () => {
    clock.current = new Date('2026-03-20T09:00:00Z')
    const outside = await request(app.server).post('/bookings').set('authorization', bob)
      .send({ roomId: berlin, start: '2026-04-13T05:30:00Z', end: '2026-04-13T06:30:00Z' }).expect(422)   // 07:30 local
    expect(outside.body).to.include({ code: 'BOOKING_OUTSIDE_HOURS' })
    await request(app.server).post('/bookings').set('authorization', bob)
      .send({ roomId: berlin, start: '2026-04-13T06:00:00Z', end: '2026-04-13T07:00:00Z' }).expect(201)     // 08:00 local, summer time
    const all = (await request(app.server).get('/bookings?limit=100').set('authorization', admin).expect(200)).body
    const page = (await request(app.server).get('/bookings?limit=2&offset=1').set('authorization', admin).expect(200)).body
    expect(page).to.include({ total: all.total, limit: 2, offset: 1 })
    expect(page.items).to.deep.equal(all.items.slice(1, 3))
    const mine = (await request(app.server).get('/bookings').set('authorization', cy).expect(200)).body
    expect(mine.items.every((b: { userId: string }) => b.userId === 'cy')).to.equal(true)
    await request(app.server).get('/bookings?limit=0').set('authorization', admin).expect(400)
  })
})
