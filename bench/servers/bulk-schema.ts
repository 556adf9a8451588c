/**
 * The `bulk` endpoint: POST /bulk with a 64 KB JSON body of nested objects (orders, each with a
 * customer, an address and order lines), validated by a body schema; the answer is a small
 * summary. Parsing and validating the body is the work.
 */
import { mulberry32 } from '../harness/prng'

export const BULK_BODY_BYTES = 64 * 1024

const str = (maxLength: number) => ({ type: 'string', maxLength })

const lineSchema = {
  type: 'object',
  properties: { sku: str(32), qty: { type: 'integer', minimum: 1, maximum: 1000 }, price: { type: 'number', minimum: 0 } },
  required: ['sku', 'qty', 'price'],
}

const orderSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1 },
    placedAt: str(32),
    customer: {
      type: 'object',
      properties: {
        name: str(100),
        email: str(200),
        address: {
          type: 'object',
          properties: { street: str(200), city: str(100), zip: str(10), country: { type: 'string', minLength: 2, maxLength: 2 } },
          required: ['city', 'country'],
        },
      },
      required: ['name', 'email'],
    },
    lines: { type: 'array', items: lineSchema, minItems: 1, maxItems: 50 },
    notes: str(500),
  },
  required: ['id', 'customer', 'lines'],
}

export const bulkSchema = {
  body: {
    type: 'object',
    properties: { batch: str(64), orders: { type: 'array', items: orderSchema, maxItems: 1000 } },
    required: ['batch', 'orders'],
  },
  response: {
    200: {
      type: 'object',
      properties: { batch: { type: 'string' }, orders: { type: 'integer' }, lines: { type: 'integer' }, quantity: { type: 'integer' } },
      required: ['batch', 'orders', 'lines', 'quantity'],
    },
  },
}

export interface OrderLine { sku: string; qty: number; price: number }
export interface Order { id: number; placedAt: string; customer: { name: string; email: string; address: Record<string, string> }; lines: OrderLine[]; notes: string }
export interface Bulk { batch: string; orders: Order[] }
export interface BulkSummary { batch: string; orders: number; lines: number; quantity: number }

function order(id: number, next: () => number): Order {
  const lineCount = 1 + Math.floor(next() * 5)
  const lines: OrderLine[] = []
  for (let i = 0; i < lineCount; i++) lines.push({ sku: `SKU-${Math.floor(next() * 1e6)}`, qty: 1 + Math.floor(next() * 20), price: Math.round(next() * 10000) / 100 })
  return {
    id,
    placedAt: `2026-11-${String(1 + (id % 28)).padStart(2, '0')}T10:${String(id % 60).padStart(2, '0')}:00Z`,
    customer: {
      name: `Customer ${id}`,
      email: `customer${id}@example.com`,
      address: { street: `${id} Long Street`, city: 'Springfield', zip: String(10000 + id), country: 'US' },
    },
    lines,
    notes: id % 4 === 0 ? 'Leave at the door, ring twice' : '',
  }
}

/** Orders are added until the JSON is as close to 64 KB as whole orders allow, without passing it. */
function makeBulk(): Bulk {
  const next = mulberry32(16)
  const bulk: Bulk = { batch: 'batch-2026-11-23', orders: [] }
  for (let id = 1; ; id++) {
    bulk.orders.push(order(id, next))
    if (JSON.stringify(bulk).length > BULK_BODY_BYTES) {
      bulk.orders.pop()
      return bulk
    }
  }
}

export const bulkBody: Bulk = makeBulk()

/** What every /bulk handler answers for a validated body. */
export function bulkSummary(body: Bulk): BulkSummary {
  let lines = 0
  let quantity = 0
  for (const o of body.orders) {
    lines += o.lines.length
    for (const l of o.lines) quantity += l.qty
  }
  return { batch: body.batch, orders: body.orders.length, lines, quantity }
}
