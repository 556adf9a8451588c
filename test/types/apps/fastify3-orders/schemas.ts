// Was the same file: TypeBox schemas (with @fastify/type-provider-typebox) and an `as const`
// JSON Schema (with @fastify/type-provider-json-schema-to-ts), plus the route generics the older
// routes still state by hand.
import { Type, type Static } from '@sinclair/typebox'
import type { RouteGenericInterface } from '../../../../src'

export const OrderInput = Type.Object({
  sku: Type.String({ minLength: 1 }),
  quantity: Type.Integer({ minimum: 1 }),
  note: Type.Optional(Type.String()),
}, { additionalProperties: false })
export type OrderInput = Static<typeof OrderInput>

export const Order = Type.Object({
  id: Type.Integer(),
  sku: Type.String(),
  quantity: Type.Integer(),
  status: Type.Union([Type.Literal('open'), Type.Literal('shipped')]),
  total: Type.Number(),
})
export type Order = Static<typeof Order>

export const Problem = Type.Object({ statusCode: Type.Integer(), error: Type.String(), message: Type.String() })

export const listQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: 1 },
    status: { type: 'string', enum: ['open', 'shipped'] },
  },
  additionalProperties: false,
} as const

export interface OrderParams { id: number }

export interface GetOrder extends RouteGenericInterface {
  Params: OrderParams
  Headers: { 'x-tenant'?: string }
  Reply: Order
}

export interface ShipOrder extends RouteGenericInterface {
  Params: OrderParams
  Body: { carrier: 'ups' | 'dhl'; tracking?: string }
  Reply: Order
}
