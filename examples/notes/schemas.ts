import { SchemaClass } from '../../src'

// Every shape of the notes service, declared once: each class is the JSON Schema that validates
// or serializes it and the TypeScript type the handlers and the repository use.

export class User extends SchemaClass({
  $id: 'user', type: 'object', required: ['id', 'name'], additionalProperties: false,
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
}) {}

export class NewUser extends SchemaClass({
  type: 'object', required: ['name'], additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 40 } },
}) {}

export class Note extends SchemaClass({
  $id: 'note', type: 'object', required: ['id', 'authorId', 'title', 'tags'], additionalProperties: false,
  properties: {
    id: { type: 'integer' }, authorId: { type: 'integer' },
    title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } },
  },
}) {}

export class NewNote extends SchemaClass({
  type: 'object', required: ['authorId', 'title'], additionalProperties: false,
  properties: {
    authorId: { type: 'integer', minimum: 1 },
    title: { type: 'string', minLength: 1, maxLength: 200 },
    tags: { type: 'array', maxItems: 10, items: { type: 'string', minLength: 1 }, default: [] },
  },
}) {}

export class NoteList extends SchemaClass({
  type: 'object', required: ['items'], additionalProperties: false,
  properties: { items: { type: 'array', items: { $ref: 'note#' } } },
}, { references: [Note] }) {}

export class NoteFilter extends SchemaClass({
  type: 'object', additionalProperties: false,
  properties: { authorId: { type: 'integer', minimum: 1 }, tag: { type: 'string', minLength: 1 } },
}) {}

/** `/:id` in both modules: the URL's string coerced to a positive integer. */
export class ById extends SchemaClass({
  type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1 } },
}) {}
