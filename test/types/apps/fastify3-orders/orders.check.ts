// Was the service's tap test: `app.inject()` with typed answers.
import { build } from './app'
import type { Order } from './schemas'

export async function createsAnOrder(): Promise<void> {
  const app = build()
  const response = await app.inject({ method: 'POST', url: '/orders', headers: { authorization: 'Bearer clerk-token' }, payload: { sku: 'tea', quantity: 2 } })
  const order = response.json<Order>()
  if (response.statusCode !== 201 || order.status !== 'open') throw new Error(`unexpected ${response.body}`)
  await app.close()
}
