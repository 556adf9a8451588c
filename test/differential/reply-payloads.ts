// The `reply-payloads` family: payload kinds the reply-api family does not send, each under a
// Content-Type set before (none, text/plain, JSON, octet-stream, a `+json` type, HTML in latin1)
// and sent by return or reply.send(): typed arrays and DataViews, Uint8Array, objects with a
// toJSON (returning a string, a number, null), class instances, objects without a prototype,
// sparse arrays and undefined members, Maps and Sets, nested Dates, strings that are JSON, an
// empty stream, a stream of Buffers, numbers JSON writes oddly (-0, NaN, 1e21), and sometimes an
// onSend hook that reports the payload's kind in a header.
import { Readable } from 'node:stream'
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

export type PayloadKind = 'uint8array' | 'int16array' | 'dataview' | 'tojson-string' | 'tojson-number' | 'tojson-null' | 'class' | 'null-proto' | 'sparse' | 'undefined-members'
  | 'map' | 'set' | 'nested-date' | 'json-text' | 'empty-stream' | 'buffer-stream' | 'odd-numbers' | 'nan' | 'negative-zero' | 'empty-buffer' | 'empty-object'

export interface PayloadShape {
  kind: PayloadKind
  type?: string
  via: 'return' | 'send'
  observe: boolean
  status?: number
  /** Replays only: the typed array or DataView sent as a Buffer of its bytes (README: sent as its bytes, reply-payloads-differences.ts). */
  asBytes?: true
}

const VIEWS = new Set<PayloadKind>(['uint8array', 'int16array', 'dataview'])

/** Whether the payload is a typed array or a DataView (Enclave sends its bytes). */
export function isView(shape: PayloadShape): boolean {
  return VIEWS.has(shape.kind)
}

const KINDS: PayloadKind[] = ['uint8array', 'int16array', 'dataview', 'tojson-string', 'tojson-number', 'tojson-null', 'class', 'null-proto', 'sparse', 'undefined-members',
  'map', 'set', 'nested-date', 'json-text', 'empty-stream', 'buffer-stream', 'odd-numbers', 'nan', 'negative-zero', 'empty-buffer', 'empty-object']
const TYPES = [undefined, undefined, 'text/plain', 'application/json', 'application/octet-stream', 'application/vnd.x+json', 'text/html; charset=latin1']

class Point {
  constructor(public x: number, public y: number) {}
  get sum(): number { return this.x + this.y }
}

function payloadOf(kind: PayloadKind): unknown {
  switch (kind) {
    case 'uint8array': return new Uint8Array([0x68, 0x69])
    case 'int16array': return new Int16Array([1, 2])
    case 'dataview': return new DataView(new Uint8Array([0x6f, 0x6b]).buffer)
    case 'tojson-string': return { hidden: 1, toJSON: () => 'as text' }
    case 'tojson-number': return { toJSON: () => 5 }
    case 'tojson-null': return { toJSON: () => null }
    case 'class': return new Point(1, 2)
    case 'null-proto': return Object.assign(Object.create(null), { a: 1 })
    case 'sparse': return [1, , 3] // eslint-disable-line no-sparse-arrays
    case 'undefined-members': return { a: undefined, b: [undefined, 1], c: 'x' }
    case 'map': return new Map([['a', 1]])
    case 'set': return new Set([1, 2])
    case 'nested-date': return { at: { when: new Date(Date.UTC(2020, 1, 3)) } }
    case 'json-text': return '{"already":"json"}'
    case 'empty-stream': return Readable.from([])
    case 'buffer-stream': return Readable.from([Buffer.from('ab'), Buffer.from('cd')])
    case 'odd-numbers': return { big: 1e21, small: 1e-7, neg: -0 }
    case 'nan': return { n: NaN, i: Infinity }
    case 'negative-zero': return -0
    case 'empty-buffer': return Buffer.alloc(0)
    case 'empty-object': return {}
  }
}

function kindOf(payload: unknown): string {
  if (payload === null || payload === undefined) return String(payload)
  if (Buffer.isBuffer(payload)) return 'buffer'
  if (typeof (payload as { pipe?: unknown }).pipe === 'function') return 'stream'
  return typeof payload
}

export function drawPayloadShape(r: Random): PayloadShape {
  const shape: PayloadShape = { kind: r.pick(KINDS), via: r.pick(['return', 'send'] as const), observe: r.chance(0.3) }
  const type = r.pick(TYPES)
  if (type !== undefined) shape.type = type
  if (r.chance(0.15)) shape.status = r.pick([201, 404, 500])
  return shape
}

export function payloadRoute(shape: PayloadShape): RouteSpec {
  const handler: Handler = async (_q, reply) => {
    if (shape.status !== undefined) reply.code(shape.status)
    if (shape.type !== undefined) reply.type(shape.type)
    const drawn = payloadOf(shape.kind)
    const payload = shape.asBytes === true && ArrayBuffer.isView(drawn) ? Buffer.from(drawn.buffer, drawn.byteOffset, drawn.byteLength) : drawn
    if (shape.via === 'return') return payload
    reply.send(payload)
    return reply
  }
  // onSend sees the payload as the serializer left it: a string, a Buffer, a stream, null.
  const options = shape.observe ? { onSend: async (_q: Any, reply: Any, payload: unknown) => { reply.header('x-payload-kind', kindOf(payload)); return payload } } : undefined
  return { method: 'GET', url: '/p', handler, ...(options ? { options } : {}) }
}

export function payloadRequest(): RequestSpec {
  return { method: 'GET', url: '/p' }
}

export function describePayloadShape(shape: PayloadShape): string {
  return `${shape.via} ${shape.kind}${shape.type ? ` as ${shape.type}` : ''}${shape.status ? ` code ${shape.status}` : ''}${shape.observe ? ', onSend reads its kind' : ''}`
}
