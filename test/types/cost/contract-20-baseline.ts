// The baseline of contract-20-routes.ts: the same imports and schemas, no contract, no client.
import { createClient, createServer, defineContract, implement } from '../../../src'

const Item = { type: 'object', required: ['id', 'name', 'count'], properties: { id: { type: 'string' }, name: { type: 'string' }, count: { type: 'integer' } }, additionalProperties: false } as const
const NewItem = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, count: { type: 'integer' } }, additionalProperties: false } as const
const Missing = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } as const
export const unused = [createClient, createServer, defineContract, implement, Item, NewItem, Missing]
