import { SchemaClass, type SchemaType } from '../../../../src'

/** One body per job type, told apart by `type` (a discriminated union: each branch fixes `type` with `const`). */
export const newJob = {
  type: 'object',
  required: ['type'],
  discriminator: { propertyName: 'type' },   // ajv 8: only the branch `type` names is checked
  oneOf: [
    {
      type: 'object', additionalProperties: false, required: ['type', 'to', 'subject'],
      properties: { type: { const: 'email' }, to: { type: 'string', format: 'email' }, subject: { type: 'string', minLength: 1, maxLength: 200 } },
    },
    {
      type: 'object', additionalProperties: false, required: ['type', 'steps'],
      properties: { type: { const: 'export' }, steps: { type: 'integer', minimum: 1, maximum: 100 }, stepMs: { type: 'integer', minimum: 0, maximum: 5000, default: 100 } },
    },
  ],
} as const
/** A class cannot be a union (TS2509), so the union's type is named from the schema. */
export type NewJob = SchemaType<typeof newJob>

export class JobStatus extends SchemaClass({
  type: 'object', required: ['id', 'type', 'state'],
  properties: {
    id: { type: 'string' },
    type: { type: 'string' },
    state: { type: 'string' },
    progress: { type: 'number' },
    attempts: { type: 'integer' },
    result: { type: 'object', additionalProperties: true },
    failedReason: { type: 'string' },
  },
} as const) {}

export class JobId extends SchemaClass({ type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } } } as const) {}
