// The cost figure of a 20-route contract (docs/openapi-and-client.md, "Typed client"): the contract, its implementation
// and a call of every route with its answer narrowed. scripts/contract-type-cost.js compiles it
// alone and beside contract-20-baseline.ts (the same schemas, no contract), by `tsc --extendedDiagnostics`.
import { createClient } from '../../../src'
// The contract and its implementation are contract-20-server.ts's: this program is that one plus the calls.
import { api } from './contract-20-server'

export async function callAll(): Promise<string[]> {
  const client = createClient(api, { baseUrl: 'http://localhost:3000' })
  const out: string[] = []
  const r0 = await client.get0({ params: { id: '1' } }); if (r0.status === 200) out.push(r0.body.name)
  const r1 = await client.list1({ query: { limit: 3 } }); if (r1.status === 200) out.push(r1.body[0].name)
  const r2 = await client.create2({ body: { name: 'x' } }); if (r2.status === 201) out.push(r2.body.id)
  const r3 = await client.update3({ params: { id: 1 }, body: { name: 'y' } }); if (r3.status === 200) out.push(r3.body.name)
  const r4 = await client.get4({ params: { id: '1' } }); if (r4.status === 200) out.push(r4.body.name)
  const r5 = await client.list5({ query: { limit: 3 } }); if (r5.status === 200) out.push(r5.body[0].name)
  const r6 = await client.create6({ body: { name: 'x' } }); if (r6.status === 201) out.push(r6.body.id)
  const r7 = await client.update7({ params: { id: 1 }, body: { name: 'y' } }); if (r7.status === 200) out.push(r7.body.name)
  const r8 = await client.get8({ params: { id: '1' } }); if (r8.status === 200) out.push(r8.body.name)
  const r9 = await client.list9({ query: { limit: 3 } }); if (r9.status === 200) out.push(r9.body[0].name)
  const r10 = await client.create10({ body: { name: 'x' } }); if (r10.status === 201) out.push(r10.body.id)
  const r11 = await client.update11({ params: { id: 1 }, body: { name: 'y' } }); if (r11.status === 200) out.push(r11.body.name)
  const r12 = await client.get12({ params: { id: '1' } }); if (r12.status === 200) out.push(r12.body.name)
  const r13 = await client.list13({ query: { limit: 3 } }); if (r13.status === 200) out.push(r13.body[0].name)
  const r14 = await client.create14({ body: { name: 'x' } }); if (r14.status === 201) out.push(r14.body.id)
  const r15 = await client.update15({ params: { id: 1 }, body: { name: 'y' } }); if (r15.status === 200) out.push(r15.body.name)
  const r16 = await client.get16({ params: { id: '1' } }); if (r16.status === 200) out.push(r16.body.name)
  const r17 = await client.list17({ query: { limit: 3 } }); if (r17.status === 200) out.push(r17.body[0].name)
  const r18 = await client.create18({ body: { name: 'x' } }); if (r18.status === 201) out.push(r18.body.id)
  const r19 = await client.update19({ params: { id: 1 }, body: { name: 'y' } }); if (r19.status === 200) out.push(r19.body.name)
  return out
}
