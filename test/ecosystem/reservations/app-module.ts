import jwt from '@fastify/jwt'
import { DatabaseError } from 'pg'
import { ErrorHandler, HttpError, Module, openapiRoute, type Reply, type Request } from '../../../src'
import { Db, DbConfig } from './db'
import { Clock } from './clock'
import { Payments } from './payments'
import { JwtGuard, RoleGuard } from './auth'
import { RoomStore, RoomsController } from './rooms'
import { BookingService, BookingsController } from './bookings'
import { BookingPatch, NewBooking, NewRoom } from './schemas'

/**
 * `format: 'full'`: ajv 6's default ('fast', as in Fastify 3) checks only the shape of a `date` or
 * `date-time` (2026-02-30 and 25:00 pass); 'full' checks the calendar and the clock.
 * `coerceTypes: 'array'`: `?amenities=wifi` (one value) is `['wifi']`, not a 400.
 */
export const appOptions = { validator: { customOptions: { format: 'full' as const, coerceTypes: 'array' as const } } }

export interface ReservationsOptions { databaseUrl: string; jwtSecret: string }

/** SQL states a client can cause, as 4xx; the driver's text (it may quote values) stays in the log. */
function fromDriver(error: unknown): HttpError | undefined {
  if (!(error instanceof DatabaseError)) return undefined
  if (error.code === '23P01') return new HttpError(409, 'The room is already booked for part of this range', { code: 'BOOKING_CONFLICT' })
  if (error.code === '22007' || error.code === '22008') return new HttpError(400, 'A date or time is out of range', { code: 'BAD_DATE' })
  return undefined
}

export function reservationsModule(options: ReservationsOptions) {
  @Module({
    plugins: [
      [jwt, { secret: options.jwtSecret }],
      openapiRoute({ path: '/openapi.json', info: { title: 'Reservations', version: '1.0.0' } }),
    ],
    schemas: [NewRoom, NewBooking, BookingPatch],
    controllers: [RoomsController, BookingsController],
    providers: [{ provide: DbConfig, useValue: new DbConfig(options.databaseUrl) }, Db, Clock, Payments, JwtGuard, RoleGuard, RoomStore, BookingService],
  })
  class ReservationsModule {
    @ErrorHandler()
    onError(error: Error, _request: Request, reply: Reply) {
      const mapped = fromDriver(error)
      if (mapped === undefined) throw error
      reply.send(mapped)
    }
  }
  return ReservationsModule
}
