// The `validation` family: the edges where users' schemas meet ajv 6 as Fastify 3 configures it
// (coerceTypes, useDefaults, removeAdditional, nullable, the fast formats). Coercion of the query
// string, params and headers (type lists with null, booleans from 'true'/'1'/'', arrays from a
// repeated and from a single key, enum/const and anyOf under coercion: ajv 6's first branch
// coerces the data even when it then fails), `default` filling (nested, in array items, with
// removeAdditional), the error message of each keyword, allErrors, attachValidation,
// schemaErrorFormatter (server and route), custom ajv options and plugins (ajv-errors) given as
// Fastify's `ajv` server option to both, and `$ref`s to shared schemas by `$id`. The handler
// echoes what validation left in each part and the validation error it was handed.
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any
type Schema = Record<string, unknown>

export interface ValidationDrawn {
  route: RouteSpec
  request: RequestSpec
  server: Record<string, unknown>
  note: string
}

type Part = 'querystring' | 'params' | 'headers' | 'body'

/** A schema for one part and the raw values a client sends for it (query text, path, header sets, JSON). */
interface Probe {
  name: string
  part: Part
  schema: Schema
  /** querystring: query texts; params: paths after `/v`; headers: JSON objects of headers; body: JSON texts. */
  sends: string[]
}

const FORMATS = ['date', 'date-time', 'time', 'email', 'hostname', 'ipv4', 'ipv6', 'uri', 'uri-reference', 'uuid', 'regex', 'json-pointer', 'url', 'uri-template', 'relative-json-pointer']
const FORMAT_VALUES = ['2020-01-02', '2020-02-30', '2020-01-02T10:30:00Z', '2020-01-02T25:30:00Z', '2020-01-02 10:30:00', '10:30:00', '10:30:00Z', '25:00:00', 'a@b.co', 'a@b', 'ex.com', '-ex-.com', '127.0.0.1', '256.1.1.1', '::1', 'http://ex.com/a?b=1', '//ex.com', '/a/b', 'a b', '123e4567-e89b-12d3-a456-426614174000', '123e4567-e89b-12d3-a456', '[a-', '^a+$', '/a~0b', '#/a', '0/a', 'x{y}', '']

const QUERY_PROBES: Probe[] = [
  { name: 'integer-or-null', part: 'querystring', schema: { type: 'object', properties: { n: { type: ['integer', 'null'] } } }, sends: ['n=1', 'n=', 'n=null', 'n=x', 'n=1.5', '', 'n=1&n=2', 'n=-0', 'n=%201'] },
  { name: 'null-or-integer', part: 'querystring', schema: { type: 'object', properties: { n: { type: ['null', 'integer'] } } }, sends: ['n=1', 'n=', 'n=null', 'n=0'] },
  { name: 'boolean', part: 'querystring', schema: { type: 'object', properties: { b: { type: 'boolean' } }, required: ['b'] }, sends: ['b=true', 'b=1', 'b=', 'b=0', 'b=false', 'b=x', 'b=TRUE', 'b', 'b=true&b=false', ''] },
  { name: 'boolean-or-null', part: 'querystring', schema: { type: 'object', properties: { b: { type: ['boolean', 'null'] } } }, sends: ['b=true', 'b=', 'b=null', 'b=0', 'b=2'] },
  { name: 'integer-array', part: 'querystring', schema: { type: 'object', properties: { a: { type: 'array', items: { type: 'integer' } } } }, sends: ['a=1', 'a=1&a=2', 'a=x', 'a=', '', 'a=1,2', 'a=1&a=x', 'a[]=1'] },
  { name: 'string-array-bounded', part: 'querystring', schema: { type: 'object', properties: { a: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 3, uniqueItems: true } } }, sends: ['a=1', 'a=1&a=2', 'a=1&a=1', 'a=1&a=2&a=3&a=4'] },
  { name: 'tuple', part: 'querystring', schema: { type: 'object', properties: { t: { type: 'array', items: [{ type: 'integer' }, { type: 'boolean' }], additionalItems: false } } }, sends: ['t=1&t=true', 't=1', 't=1&t=x', 't=1&t=1&t=1'] },
  { name: 'scalar-from-array', part: 'querystring', schema: { type: 'object', properties: { s: { type: 'string' }, i: { type: 'integer' } } }, sends: ['s=a&s=b', 'i=1&i=2', 'i=1', 's='] },
  { name: 'enum-coerced', part: 'querystring', schema: { type: 'object', properties: { e: { type: 'integer', enum: [1, 2] } } }, sends: ['e=1', 'e=3', 'e=x', 'e=01', 'e=1.0'] },
  { name: 'enum-untyped', part: 'querystring', schema: { type: 'object', properties: { e: { enum: [1, '2', true, null] } } }, sends: ['e=1', 'e=2', 'e=true', 'e=null', 'e='] },
  { name: 'const', part: 'querystring', schema: { type: 'object', properties: { c: { type: 'number', const: 1 }, d: { const: 'x' } } }, sends: ['c=1', 'c=1.0', 'c=2', 'd=x', 'd=y'] },
  { name: 'anyOf-integer-boolean', part: 'querystring', schema: { type: 'object', properties: { u: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] } } }, sends: ['u=1', 'u=true', 'u=x', 'u=', 'u=0'] },
  { name: 'anyOf-boolean-integer', part: 'querystring', schema: { type: 'object', properties: { u: { anyOf: [{ type: 'boolean' }, { type: 'integer' }] } } }, sends: ['u=1', 'u=2', 'u=false', 'u=x'] },
  { name: 'anyOf-bounded-first', part: 'querystring', schema: { type: 'object', properties: { u: { anyOf: [{ type: 'integer', maximum: 5 }, { type: 'string' }] } } }, sends: ['u=3', 'u=9', 'u=x'] },
  { name: 'oneOf-number-string', part: 'querystring', schema: { type: 'object', properties: { u: { oneOf: [{ type: 'number' }, { type: 'string' }] } } }, sends: ['u=1', 'u=x', 'u='] },
  { name: 'nullable', part: 'querystring', schema: { type: 'object', properties: { i: { type: 'integer', nullable: true }, s: { type: 'string', nullable: true } } }, sends: ['i=', 'i=null', 'i=2', 's=', 's=null', 'i=x'] },
  { name: 'defaults', part: 'querystring', schema: { type: 'object', properties: { d: { type: 'integer', default: 5 }, s: { type: 'string', default: 'x' }, b: { type: 'boolean', default: false }, a: { type: 'array', items: { type: 'integer' }, default: [1] } } }, sends: ['', 'd=2', 's=', 'a=3', 'b=1'] },
  { name: 'no-additional', part: 'querystring', schema: { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false }, sends: ['a=1&z=2', 'z=1', 'a=1'] },
  { name: 'additional-typed', part: 'querystring', schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'integer' } }, sends: ['a=1&z=2', 'z=x', 'z=1&z=2'] },
  { name: 'pattern-properties', part: 'querystring', schema: { type: 'object', patternProperties: { '^n_': { type: 'integer' } }, additionalProperties: false }, sends: ['n_a=1', 'n_a=x', 'm=1'] },
  { name: 'many-errors', part: 'querystring', schema: { type: 'object', properties: { a: { type: 'integer', minimum: 5 }, b: { type: 'string', minLength: 3 }, c: { type: 'boolean' } }, required: ['a', 'b'] }, sends: ['a=1&b=x&c=x', 'c=1', 'a=6&b=xyz', 'a=x&b=1'] },
  { name: 'number-bounds', part: 'querystring', schema: { type: 'object', properties: { n: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 } } }, sends: ['n=0', 'n=10', 'n=0.5', 'n=0.3', 'n=1e1', 'n=-1'] },
  { name: 'string-keywords', part: 'querystring', schema: { type: 'object', properties: { s: { type: 'string', minLength: 2, maxLength: 4, pattern: '^[a-z]+$' } } }, sends: ['s=ab', 's=a', 's=abcde', 's=AB', 's=%C3%A9%C3%A9', 's=1'] },
  { name: 'dependencies', part: 'querystring', schema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, dependencies: { a: ['b'] }, minProperties: 1, maxProperties: 2 }, sends: ['a=1', 'a=1&b=2', '', 'a=1&b=2&c=3'] },
  { name: 'property-names', part: 'querystring', schema: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } }, sends: ['a=1', 'A=1', 'a1=1'] },
  { name: 'if-then-else', part: 'querystring', schema: { type: 'object', properties: { k: { type: 'string' }, n: { type: 'integer' } }, if: { properties: { k: { const: 'num' } } }, then: { required: ['n'] }, else: { not: { required: ['n'] } } }, sends: ['k=num', 'k=num&n=1', 'k=x&n=1', 'k=x'] },
]

const PARAMS_PROBES: Probe[] = [
  { name: 'params-typed', part: 'params', schema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'boolean' } } }, sends: ['/1/true', '/x/1', '/1/', '/01/0', '/1.5/x', '/-3/false'] },
  { name: 'params-null', part: 'params', schema: { type: 'object', properties: { a: { type: ['integer', 'null'] }, b: { type: 'string', nullable: true } } }, sends: ['/1/x', '/null/null', '/x/null'] },
  { name: 'params-enum', part: 'params', schema: { type: 'object', properties: { a: { enum: [1, 2] }, b: { type: 'string', enum: ['x', 'y'] } } }, sends: ['/1/x', '/3/z', '/a/y'] },
  { name: 'params-format', part: 'params', schema: { type: 'object', properties: { a: { type: 'string', format: 'uuid' }, b: { type: 'string', format: 'date' } } }, sends: ['/123e4567-e89b-12d3-a456-426614174000/2020-01-02', '/x/2020-13-01', '/123e4567-e89b-12d3-a456-426614174000/x'] },
  { name: 'params-array', part: 'params', schema: { type: 'object', properties: { a: { type: 'array', items: { type: 'integer' } }, b: { type: 'string' } } }, sends: ['/1/x', '/1,2/x', '/x/x'] },
]

const HEADER_PROBES: Probe[] = [
  { name: 'headers-coerced', part: 'headers', schema: { type: 'object', properties: { 'x-n': { type: ['integer', 'null'] }, 'x-b': { type: 'boolean' } } }, sends: ['{"x-n":"1","x-b":"true"}', '{"x-n":"","x-b":""}', '{"x-n":"x"}', '{"X-B":"1"}', '{"x-b":"no"}'] },
  { name: 'headers-required', part: 'headers', schema: { type: 'object', properties: { 'x-key': { type: 'string', minLength: 3 } }, required: ['x-key'] }, sends: ['{}', '{"x-key":"ab"}', '{"X-Key":"abc"}'] },
  { name: 'headers-array', part: 'headers', schema: { type: 'object', properties: { 'x-list': { type: 'array', items: { type: 'string' } } } }, sends: ['{"x-list":"a"}', '{"x-list":"a, b"}', '{}'] },
  { name: 'headers-defaults', part: 'headers', schema: { type: 'object', properties: { 'x-d': { type: 'integer', default: 3 }, 'x-e': { enum: ['a', 'b'] } } }, sends: ['{}', '{"x-d":"7"}', '{"x-e":"c"}'] },
]

const NESTED_DEFAULTS: Schema = {
  type: 'object',
  properties: {
    o: { type: 'object', properties: { x: { type: 'integer', default: 1 }, y: { type: 'object', properties: { z: { default: 'z' } }, default: {} } }, default: {} },
    arr: { type: 'array', items: { type: 'object', properties: { k: { type: 'integer', default: 0 } }, additionalProperties: false } },
    t: { type: 'array', items: [{ type: 'string', default: 'first' }, { type: 'integer', default: 2 }] },
  },
}

const BODY_PROBES: Probe[] = [
  { name: 'nested-defaults', part: 'body', schema: NESTED_DEFAULTS, sends: ['{}', '{"o":{}}', '{"o":{"y":{}}}', '{"arr":[{},{"k":"2"},{"k":1,"extra":1}]}', '{"o":null}', '{"t":[]}', '{"t":["a"]}', '{"arr":[null]}'] },
  { name: 'defaults-removed', part: 'body', schema: { type: 'object', properties: { a: { type: 'string', default: 'd' } }, additionalProperties: false, required: ['a'] }, sends: ['{}', '{"b":1}', '{"a":"x","b":1}', '{"a":null}'] },
  { name: 'anyOf-objects', part: 'body', schema: { type: 'object', properties: { v: { anyOf: [{ type: 'object', properties: { a: { type: 'integer' } }, required: ['a', 'b'] }, { type: 'object', properties: { a: { type: 'string' } } }] } } }, sends: ['{"v":{"a":"1"}}', '{"v":{"a":1}}', '{"v":{"a":"1","b":2}}', '{"v":{"a":true}}', '{"v":1}'] },
  { name: 'anyOf-removes', part: 'body', schema: { anyOf: [{ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'], additionalProperties: false }, { type: 'object', properties: { b: { type: 'integer' } }, required: ['b'] }] }, sends: ['{"a":1,"b":2}', '{"b":2,"c":3}', '{"a":"x","b":"2"}', '{}'] },
  { name: 'anyOf-scalars', part: 'body', schema: { type: 'object', properties: { v: { anyOf: [{ type: 'integer' }, { type: 'string' }] }, w: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } }, sends: ['{"v":"1","w":1}', '{"v":true,"w":true}', '{"v":null,"w":null}', '{"v":1.5}'] },
  { name: 'oneOf-overlap', part: 'body', schema: { type: 'object', properties: { v: { oneOf: [{ type: 'integer' }, { type: 'number' }] } } }, sends: ['{"v":1}', '{"v":1.5}', '{"v":"2"}'] },
  { name: 'nullable-body', part: 'body', schema: { type: 'object', properties: { a: { type: 'string', nullable: true }, b: { type: 'object', nullable: true, properties: { c: { type: 'integer' } } }, n: { type: 'integer', nullable: true, default: null } } }, sends: ['{"a":null,"b":null}', '{"a":1,"b":{"c":"2"}}', '{}', '{"n":"1"}', '{"b":{"c":null}}'] },
  { name: 'body-coercion', part: 'body', schema: { type: 'object', properties: { i: { type: 'integer' }, s: { type: 'string' }, b: { type: 'boolean' }, a: { type: 'array', items: { type: 'integer' } }, n: { type: 'null' } } }, sends: ['{"i":"1","s":1,"b":"true","a":"1","n":""}', '{"i":true,"s":true,"b":1,"a":[true],"n":0}', '{"i":null,"s":null,"b":null,"a":null,"n":false}', '{"i":[1]}', '{"s":{"x":1}}'] },
  { name: 'keywords-body', part: 'body', schema: { type: 'object', properties: { list: { type: 'array', contains: { type: 'integer', minimum: 10 }, minItems: 1 }, o: { type: 'object', minProperties: 1, additionalProperties: false, properties: { k: { type: 'string' } } }, not: { not: { type: 'string' } } } }, sends: ['{"list":[1,2]}', '{"list":[]}', '{"o":{}}', '{"o":{"z":1}}', '{"not":1}', '{"list":[10],"o":{"k":"x"},"not":"s"}'] },
  { name: 'required-nested', part: 'body', schema: { type: 'object', required: ['user'], properties: { user: { type: 'object', required: ['name', 'age'], properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } } } } }, sends: ['{}', '{"user":{}}', '{"user":{"name":1,"age":-1}}', '{"user":{"name":"a","age":"3"}}', '[]', '"user"', 'null'] },
  { name: 'no-additional-strict', part: 'body', schema: { type: 'object', properties: { a: { type: 'integer' }, nested: { type: 'object', properties: { b: { type: 'integer' } }, additionalProperties: false } }, additionalProperties: false }, sends: ['{"a":1,"x":2}', '{"nested":{"b":1,"c":2}}', '{"nested":{"c":"x"}}'] },
  { name: 'top-scalar', part: 'body', schema: { type: 'integer', minimum: 1 }, sends: ['1', '"2"', '0', '"x"', 'true', 'null'] },
  { name: 'top-array', part: 'body', schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, maxItems: 2 }, sends: ['[{"id":1}]', '[{"id":"2"},{}]', '[1,2,3]', '{}'] },
  { name: 'ref-shared', part: 'body', schema: { type: 'object', properties: { p: { $ref: 'point#' }, id: { $ref: 'defs#/definitions/id' }, addr: { $ref: 'http://example.com/address.json#' }, item: { $ref: 'v-item#' } } }, sends: ['{"p":{"x":"1"}}', '{"p":{}}', '{"id":0}', '{"addr":{"zip":"12345","tags":["ab"]}}', '{"addr":{"zip":"x","tags":["abcdefg"]}}', '{"item":{"n":"3"}}', '{"item":{}}'] },
  { name: 'ref-whole', part: 'body', schema: { $ref: 'http://example.com/address.json#' }, sends: ['{"zip":"12345"}', '{"zip":1}', '{}', '{"zip":"12345","more":1}'] },
  { name: 'ref-definitions-local', part: 'body', schema: { type: 'object', definitions: { pos: { type: 'integer', minimum: 1 } }, properties: { a: { $ref: '#/definitions/pos' }, b: { type: 'array', items: { $ref: '#/definitions/pos' } } } }, sends: ['{"a":"1","b":["2"]}', '{"a":0}', '{"b":[1,0]}'] },
  { name: 'error-messages', part: 'body', schema: { type: 'object', errorMessage: { required: { a: 'a is needed' }, properties: { a: 'a must be a whole number' } }, properties: { a: { type: 'integer' } }, required: ['a'] }, sends: ['{}', '{"a":"x"}', '{"a":1}'] },
]

for (const format of FORMATS) {
  QUERY_PROBES.push({ name: `format-${format}`, part: 'querystring', schema: { type: 'object', properties: { f: { type: 'string', format } } }, sends: [] })
}

/** Shared schemas the `ref-*` probes use, added by the route's setup to both (the family's own `$id`s). */
const VALIDATION_SCHEMAS: Schema[] = [
  { $id: 'http://example.com/address.json', type: 'object', properties: { zip: { type: 'string', pattern: '^\\d{5}$' }, tags: { type: 'array', items: { $ref: 'defs#/definitions/tag' } } }, required: ['zip'], additionalProperties: false },
  { $id: 'v-item', type: 'object', properties: { n: { type: 'integer', default: 1 }, ref: { $ref: 'point#' } }, required: ['n'] },
]

// Given as Fastify's `ajv` server option to both (Enclave takes it as `validator`).
const CUSTOM_OPTIONS: Array<Record<string, unknown> | undefined> = [
  undefined, undefined, undefined, { allErrors: true }, { coerceTypes: 'array' }, { removeAdditional: 'all' }, { removeAdditional: false },
  { removeAdditional: 'failing' }, { useDefaults: false }, { coerceTypes: false }, { format: 'full' }, { allErrors: true, coerceTypes: 'array', removeAdditional: 'all' },
  { nullable: false }, { useDefaults: 'empty' },
]

type Formatter = (errors: Any[], dataVar: string) => Error
const FORMATTERS: Array<[string, Formatter]> = [
  ['keywords', (errors, dataVar) => new Error(`${dataVar}: ${errors.map((e) => `${e.keyword} ${e.message}`).join(' | ')}`)],
  ['status', (errors, dataVar) => Object.assign(new Error(`invalid ${dataVar} (${errors.length})`), { statusCode: 422 })],
]

const echo: Handler = (request) => {
  const headers: Record<string, unknown> = {}
  for (const [name, v] of Object.entries(request.headers as Record<string, unknown>)) if (name.startsWith('x-')) headers[name] = v
  const failed = request.validationError
  // Flat, so that the README rules that rewrite a validation message find it (a top-level string).
  return {
    query: request.query,
    params: request.params,
    headers,
    body: request.body ?? null,
    failed: failed?.message ?? null,
    context: failed?.validationContext ?? null,
    failedStatus: failed === undefined ? null : failed.statusCode ?? null,
  }
}

function requestFor(r: Random, probe: Probe): RequestSpec {
  switch (probe.part) {
    case 'querystring': {
      const sent = probe.name.startsWith('format-') ? `f=${encodeURIComponent(r.pick(FORMAT_VALUES))}` : r.pick(probe.sends)
      return { method: 'GET', url: `/v${sent === '' ? '' : `?${sent}`}` }
    }
    case 'params': return { method: 'GET', url: `/v${r.pick(probe.sends)}` }
    case 'headers': return { method: 'GET', url: '/v', headers: JSON.parse(r.pick(probe.sends)) as Record<string, string> }
    case 'body': return { method: 'POST', url: '/v', headers: { 'content-type': 'application/json' }, payload: r.pick(probe.sends) }
  }
}

export function drawValidationCase(r: Random): ValidationDrawn {
  const probe = r.pick([...QUERY_PROBES, ...QUERY_PROBES.slice(0, 16), ...PARAMS_PROBES, ...HEADER_PROBES, ...BODY_PROBES, ...BODY_PROBES])
  const server: Record<string, unknown> = {}
  const notes: string[] = [probe.name]
  const usesAjvErrors = probe.name === 'error-messages'
  let customOptions = r.pick(CUSTOM_OPTIONS)
  // ajv-errors 1 needs allErrors and jsonPointers (it refuses to load without them).
  if (usesAjvErrors) customOptions = { ...customOptions, allErrors: true, jsonPointers: true }
  if (customOptions !== undefined || usesAjvErrors) {
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    server.ajv = { ...(customOptions === undefined ? {} : { customOptions }), ...(usesAjvErrors ? { plugins: [require('ajv-errors')] } : {}) }
    notes.push(`ajv ${JSON.stringify(customOptions ?? {})}${usesAjvErrors ? ' +ajv-errors' : ''}`)
  }
  const options: Record<string, unknown> = {}
  if (r.chance(0.2)) { options.attachValidation = true; notes.push('attachValidation') }
  if (r.chance(0.15)) {
    const [name, formatter] = r.pick(FORMATTERS)
    if (r.chance(0.5)) { server.schemaErrorFormatter = formatter; notes.push(`server formatter ${name}`) } else { options.schemaErrorFormatter = formatter; notes.push(`route formatter ${name}`) }
  }
  const setup = (app: Any): void => { for (const schema of VALIDATION_SCHEMAS) app.addSchema(structuredClone(schema)) }
  const route: RouteSpec = {
    method: probe.part === 'body' ? 'POST' : 'GET',
    url: probe.part === 'params' ? '/v/:a/:b' : '/v',
    schema: { [probe.part]: probe.schema },
    handler: echo,
    options,
    setup,
  }
  return { route, request: requestFor(r, probe), server, note: notes.join(', ') }
}
