import { SchemaClass } from '../../../src'

export const AMENITIES = ['wifi', 'projector', 'whiteboard', 'video', 'accessible'] as const
const hhmm = { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' } as const

export class NewRoom extends SchemaClass({
  $id: 'newRoom', type: 'object', additionalProperties: false,
  required: ['city', 'name', 'timeZone', 'capacity', 'opens', 'closes'],
  properties: {
    city: { type: 'string', minLength: 1, maxLength: 80 }, name: { type: 'string', minLength: 1, maxLength: 80 },
    timeZone: { type: 'string', minLength: 1, maxLength: 64, description: 'IANA zone, e.g. Europe/Berlin' },
    capacity: { type: 'integer', minimum: 1, maximum: 500 },
    amenities: { type: 'array', items: { type: 'string', enum: AMENITIES }, uniqueItems: true, default: [] },
    opens: hhmm, closes: hhmm,
    openDays: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 7 }, uniqueItems: true, minItems: 1, default: [1, 2, 3, 4, 5] },
    priceCentsPerHour: { type: 'integer', minimum: 0, default: 0 },
  },
}) {}

export const room = {
  type: 'object', additionalProperties: false,
  required: ['id', 'city', 'name', 'timeZone', 'capacity', 'amenities', 'opens', 'closes', 'openDays', 'priceCentsPerHour'],
  properties: {
    id: { type: 'integer' }, city: { type: 'string' }, name: { type: 'string' }, timeZone: { type: 'string' },
    capacity: { type: 'integer' }, amenities: { type: 'array', items: { type: 'string' } },
    opens: { type: 'string' }, closes: { type: 'string' }, openDays: { type: 'array', items: { type: 'integer' } },
    priceCentsPerHour: { type: 'integer' },
  },
} as const

export const slotQuery = {
  type: 'object', additionalProperties: false, required: ['city', 'date', 'duration'],
  properties: {
    city: { type: 'string', minLength: 1 },
    date: { type: 'string', format: 'date', description: "the room's local date" },
    duration: { type: 'integer', minimum: 15, maximum: 480, multipleOf: 15, description: 'minutes' },
    capacity: { type: 'integer', minimum: 1, default: 1 },
    amenities: { type: 'array', items: { type: 'string', enum: AMENITIES }, default: [] },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    offset: { type: 'integer', minimum: 0, default: 0 },
  },
} as const

export const slot = {
  type: 'object', additionalProperties: false, required: ['roomId', 'start', 'end', 'localStart'],
  properties: {
    roomId: { type: 'integer' }, start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' },
    localStart: { type: 'string', description: "wall-clock time in the room's zone" },
  },
} as const

export class NewBooking extends SchemaClass({
  $id: 'newBooking', type: 'object', additionalProperties: false, required: ['roomId', 'start', 'end'],
  properties: { roomId: { type: 'integer', minimum: 1 }, start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' } },
}) {}

export class BookingPatch extends SchemaClass({
  $id: 'bookingPatch', type: 'object', additionalProperties: false, minProperties: 1, required: ['start', 'end'],
  properties: { start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' } },
}) {}

export const booking = {
  type: 'object', additionalProperties: false,
  required: ['id', 'roomId', 'userId', 'start', 'end', 'status', 'version', 'priceCents', 'feeCents'],
  properties: {
    id: { type: 'integer' }, roomId: { type: 'integer' }, userId: { type: 'string' },
    start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: ['confirmed', 'cancelled'] }, version: { type: 'integer' },
    priceCents: { type: 'integer' }, feeCents: { type: 'integer' },
  },
} as const

export const page = {
  type: 'object', additionalProperties: false,
  properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, offset: { type: 'integer', minimum: 0, default: 0 } },
} as const

export const waitlistEntry = {
  type: 'object', additionalProperties: false, required: ['id', 'roomId', 'start', 'end', 'status'],
  properties: {
    id: { type: 'integer' }, roomId: { type: 'integer' }, start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: ['waiting', 'booked'] }, bookingId: { type: ['integer', 'null'] },
  },
} as const

/** The error body every 4xx has; declared per status so openapi() documents what a route may answer. */
export const problem = {
  type: 'object', required: ['statusCode', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer' }, code: { type: 'string' }, error: { type: 'string' }, message: { type: 'string' },
    details: { type: 'object', additionalProperties: true },
  },
} as const
