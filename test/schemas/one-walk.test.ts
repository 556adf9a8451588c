// Eager boot checks keywords and walks for boot warnings in the walk that copies each part
// (schemas/one-walk.ts, session 20). Its copy, its keyword verdict and its warning places must be
// exactly those of the separate walks it replaces (copySchemaNoting, keyword-check.ts,
// visitSchemas), for every schema it notes; for a schema it does not note (a shared node, a cycle,
// a RegExp, a function, a non-finite number) each duty walks on its own as before.
import { expect } from 'chai'
import { copySchemaNoting, visitSchemas } from '../../src/runtime/schemas/schema-walk'
import { checkKeywords, knownKeywordsOf } from '../../src/runtime/schemas/keyword-check'
import { buildDefaultValidator } from '../../src/runtime/schemas/default-compilers'
import { copyWithDuties, type PartWarnEvent } from '../../src/runtime/schemas/one-walk'
import { isCompleteSchema } from '../../src/runtime/schemas/route-schema'
import { uniqueItemsUnbounded } from '../../src/runtime/schemas/unique-items-check'
import { riskyPatternsAt } from '../../src/runtime/schemas/pattern-check'
import { bootRoutes } from '../../bench/boot/routes'
import { bootError, bootWarnings, server } from '../support/servers'
import type { JsonSchema } from '../../src/runtime/schemas/types'

const known = knownKeywordsOf(buildDefaultValidator({}, { customOptions: {}, plugins: [] }))!
const extra: ReadonlySet<string> = new Set(['x-unused', 'myKeyword'])
const redos = '^([a-z]+)*$'

/** Tree-shaped JSON schemas: every one is noted by the one walk. */
const trees: Array<[string, unknown]> = [
  ['complete, known keywords only', { type: 'object', required: ['a'], properties: { a: { type: 'string', maxLength: 3 }, b: { type: 'array', items: { type: 'integer' } } } }],
  ['shorthand', { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } }],
  ['shorthand with a typo in a property', { name: { type: 'string', maxLenght: 3 } }],
  ['a typo at the root', { type: 'object', requird: ['a'] }],
  ['a typo deep in items arrays', { type: 'array', items: [{ type: 'string' }, { anyOf: [{ type: 'null' }, [{ minimun: 1 }]] }] }],
  ['a typo after another typo (the first is the one)', { type: 'object', properties: { a: { formt: 'x' }, b: { patern: 'y' } } }],
  ['typos only where the check does not look (data, x- and unknown maps)', { type: 'object', default: { requird: true }, enum: [{ maxLenght: 1 }], 'x-ext': { nope: { alsoNope: 1 } }, examples: [{ a: 1 }] }],
  ['annotations and custom keywords', { type: 'object', example: { a: 1 }, discriminator: { propertyName: 'kind' }, myKeyword: true, 'x-unused': 1, properties: { a: { deprecated: true } } }],
  ['a typo inside $defs, definitions, dependencies, patternProperties', { $defs: { a: { typ: 'x' } }, definitions: { b: { type: 'string' } }, dependencies: { c: { propertiez: {} }, d: ['c'] }, patternProperties: { '^x': { minLenght: 1 } } }],
  ['if/then/else, not, contains, propertyNames, additionalItems', { if: { type: 'string' }, then: { minLength: 1 }, else: { not: { contains: { const: 1 }, propertyNames: { maxLength: 3 } } }, additionalItems: { typo: 1 } }],
  ['properties that is an array, items that is a string', { properties: [{ requird: 1 }], items: 'no', additionalProperties: false }],
  ['dependentSchemas (not an ajv 6 keyword)', { dependentSchemas: { a: { uniqueItems: true } } }],
  ['a property named like a keyword', { type: 'object', properties: { properties: { type: 'object', properties: { type: { type: 'string' } } }, $async: { type: 'boolean' } } }],
  ['$async in a schema position', { type: 'object', $async: true }],
  ['$async: false', { type: 'object', $async: false }],
  ['uniqueItems and patterns to warn about, bounded and not', { type: 'object', properties: {
    tags: { type: 'array', uniqueItems: true }, tagsBounded: { type: 'array', uniqueItems: true, maxItems: 5 }, typed: { type: 'array', uniqueItems: true, items: { type: 'string' } },
    slug: { type: 'string', pattern: redos }, slugBounded: { type: 'string', pattern: redos, maxLength: 9 },
    keyed: { type: 'object', patternProperties: { [redos]: { type: 'string' }, 'a/b~c(x+)+': {} } },
    'odd/name~': { type: 'array', uniqueItems: true },
  } }],
  ['warnings in positions only the warnings walk visits', { type: 'object', 'x-ext': { pattern: redos, inner: [{ uniqueItems: true }] }, $merge: { source: { pattern: redos } }, default: { pattern: redos } }],
  ['$refs, in order with the places', { type: 'object', properties: { a: { $ref: 'Shared#' }, b: { type: 'array', uniqueItems: true }, c: { $ref: 'Other#/definitions/x' } } }],
  ['a $ref with a typo beside it', { $ref: 'Shared#', descripton: 'x' }],
  ['holes and undefined', { type: 'object', enum: [1, , 2], properties: { a: undefined } }],  // eslint-disable-line no-sparse-arrays
  ['empty', {}],
  ['null prototype', Object.assign(Object.create(null), { type: 'object', properties: Object.assign(Object.create(null), { a: { type: 'string', pattern: redos } }) })],
]

const shared = { type: 'string', maxLenght: 2 }
const cyclic: Record<string, unknown> = { type: 'object', properties: {} }
;(cyclic.properties as Record<string, unknown>).self = cyclic
/** Not trees of JSON values: the one walk copies them but leaves no notes. */
const irregular: Array<[string, unknown]> = [
  ['a node given twice', { type: 'object', properties: { a: shared, b: { allOf: [shared] } } }],
  ['a node in a data position and a schema position', { type: 'object', default: shared, properties: { a: shared } }],
  ['a cycle', cyclic],
  ['a RegExp', { type: 'string', pattern: /x+/ }],
  ['a function value', { type: 'object', properties: { a: { type: 'string', transform: () => 1 } } }],
  ['a non-finite number', { type: 'number', maximum: Infinity }],
  ['an own __proto__ key (JSON.parse makes one; the copy makes it its prototype)', JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","maxLenght":1}}}')],
  ['a class instance', { type: 'object', properties: { a: new (class Thing { type = 'string' })() } }],
]

interface Verdict { unknown: string | null; events: PartWarnEvent[] }

/** What the separate duties make of a normalized part: the check's error message, the warnings walk's events. */
function separately(normalized: unknown, boundsStop: boolean): Verdict {
  let unknown: string | null = null
  try {
    checkKeywords(normalized, known, extra, 'WHERE')
  } catch (error) {
    unknown = (error as Error).message
  }
  const events: PartWarnEvent[] = []
  visitSchemas(normalized, (node, pointer) => {
    if (uniqueItemsUnbounded(node, boundsStop)) events.push({ kind: 'unique', pointer: pointer() })
    for (const at of riskyPatternsAt(node, boundsStop)) events.push({ kind: 'pattern', pointer: pointer() + at })
    if (typeof node.$ref === 'string') events.push({ kind: 'ref', ref: node.$ref })
  })
  return { unknown, events }
}

function messageOf(notes: NonNullable<ReturnType<typeof copyWithDuties>['notes']>): string | null {
  if (notes.unknown === null) return null
  try {
    checkKeywords({ [notes.unknown.key]: 1 }, known, extra, 'WHERE')
  } catch (error) {
    // The message names the root: put the noted pointer in its place.
    return (error as Error).message.replace(`at '/'`, `at '${notes.unknown.pointer}'`)
  }
  throw new Error(`${notes.unknown.key} was expected to be unknown`)
}

describe('one walk copies a route schema part and does the keyword check\'s and the boot warnings\' walks (session 20, one-walk.ts)', () => {
  for (const [name, part] of trees) {
    for (const wrapped of [false, true]) {
      if (wrapped && isCompleteSchema(part as JsonSchema)) continue
      for (const boundsStop of [true, false]) {
        it(`${name}${wrapped ? ' (read as shorthand)' : ''}${boundsStop ? '' : ' (allErrors)'}: the same copy, keyword verdict and warning places as the separate walks`, () => {
          const before = copySchemaNoting(part)
          const walked = copyWithDuties(part as JsonSchema, wrapped, { known, extra, warnBoundsStop: boundsStop })
          expect(walked.copy).to.deep.equal(before.copy)
          expect(Object.keys(walked.copy)).to.deep.equal(Object.keys(before.copy as object))
          expect([walked.mayBeAsync, walked.sawFunction]).to.deep.equal([before.mayBeAsync, before.sawFunction])
          expect(walked.notes, 'a tree of JSON values is noted').to.not.equal(null)
          const normalized = wrapped ? { type: 'object', properties: before.copy } : before.copy
          const expected = separately(normalized, boundsStop)
          expect(messageOf(walked.notes!)).to.equal(expected.unknown)
          expect(walked.notes!.warnEvents).to.deep.equal(expected.events)
        })
      }
    }
  }

  it('a response part (no warnings duty) is checked and carries no warning events', () => {
    const walked = copyWithDuties({ type: 'object', properties: { a: { type: 'string', pattern: redos, maxLenght: 1 } } }, false, { known, extra, warnBoundsStop: null })
    expect(walked.notes!.warnEvents).to.equal(null)
    expect(walked.notes!.unknown).to.deep.equal({ key: 'maxLenght', pointer: '/properties/a' })
  })

  for (const [name, part] of irregular) {
    it(`${name}: copied as copySchemaNoting copies it, with no notes (the duties then walk it themselves)`, () => {
      const before = copySchemaNoting(part)
      const walked = copyWithDuties(part as JsonSchema, false, { known, extra, warnBoundsStop: true })
      expect(walked.copy).to.deep.equal(before.copy)
      expect([walked.mayBeAsync, walked.sawFunction]).to.deep.equal([before.mayBeAsync, before.sawFunction])
      expect(walked.notes).to.equal(null)
    })
  }

  it('the boot benchmark\'s 2,000 parts: the same copies and verdicts', () => {
    for (const route of bootRoutes(1000)) {
      for (const [part, boundsStop] of [[route.body, true], [route.response, null]] as const) {
        const before = copySchemaNoting(part)
        const walked = copyWithDuties(part as JsonSchema, false, { known, extra, warnBoundsStop: boundsStop })
        expect(walked.copy).to.deep.equal(before.copy)
        expect(walked.notes!.unknown).to.equal(null)
        if (boundsStop !== null) expect(walked.notes!.warnEvents).to.deep.equal(separately(before.copy, true).events)
      }
    }
  })
})

describe('eager boot with the one walk: a route after the first fails and warns as it did (its keyword check and warnings come from the walk)', () => {
  // The first route builds the validator; the walk checks only against a built one (keywordDuty),
  // so the routes after it are the ones whose verdicts come from the walk.
  const first = { type: 'object', properties: { ok: { type: 'string' } } }

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['body, deep', { body: { type: 'object', properties: { a: { type: 'array', items: { anyOf: [{ type: 'string', maxLenght: 3 }] } } } } }, "The body schema of route POST /second in scope root: unknown JSON Schema keyword 'maxLenght' at '/properties/a/items/anyOf/0' (did you mean 'maxLength'?)"],
    ['querystring, shorthand', { querystring: { q: { type: 'string', minLenght: 1 } } }, "The querystring schema of route POST /second in scope root: unknown JSON Schema keyword 'minLenght' at '/properties/q' (did you mean 'minLength'?)"],
    ['params before body (the check\'s part order)', { body: { type: 'object', requird: ['a'] }, params: { type: 'object', propertes: {} } }, "The params schema of route POST /second in scope root: unknown JSON Schema keyword 'propertes' at '/' (did you mean 'properties'?)"],
    ['a response status', { response: { 201: { type: 'object', properties: { id: { type: 'integer', minimun: 1 } } } } }, "The response 201 schema of route POST /second in scope root: unknown JSON Schema keyword 'minimun' at '/properties/id' (did you mean 'minimum'?)"],
  ]
  for (const [name, schema, message] of cases) {
    it(`${name}: ENC_ERR_SCH_UNKNOWN_KEYWORD with the same message as the route alone`, async () => {
      const alone = server()
      alone.post('/second', { schema }, async () => ({}))
      const expectedError = await bootError(alone)
      const app = server()
      app.post('/first', { schema: { body: first } }, async () => ({}))
      app.post('/second', { schema }, async () => ({}))
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
      expect(error.message).to.equal(expectedError.message)
      expect(error.message.startsWith(message)).to.equal(true, error.message)
    })
  }

  it('an async schema in the querystring still wins over a body typo (normalization errors come first)', async () => {
    const app = server()
    app.post('/first', { schema: { body: first } }, async () => ({}))
    app.post('/second', { schema: { body: { type: 'object', requird: [] }, querystring: { type: 'object', $async: true } } }, async () => ({}))
    expect((await bootError(app)).code).to.equal('ENC_ERR_SCH_ASYNC')
  })

  it('boot warnings name the same places, with shared schemas followed in order, under allErrors too', async () => {
    const body = { type: 'object', properties: { tags: { type: 'array', uniqueItems: true }, ref: { $ref: 'Slug#' }, 'odd/name': { type: 'string', pattern: redos } } }
    for (const allErrors of [false, true]) {
      const declare = (withFirst: boolean) => (root: import('../../src').Scope) => {
        root.addSchema({ $id: 'Slug', type: 'object', properties: { s: { type: 'string', pattern: redos, maxLength: 5 }, u: { type: 'array', uniqueItems: true, maxItems: 3 } } })
        if (withFirst) root.post('/first', { schema: { body: first } }, async () => ({}))
        root.post('/second', { schema: { body, querystring: { tags: { type: 'array', uniqueItems: true } } } }, async () => ({}))
      }
      const options = { validator: { customOptions: { allErrors } } }
      const alone = await bootWarnings(declare(false), options)
      const after = await bootWarnings(declare(true), options)
      expect(after.map((w) => [w.code, w.route, w.at, w.msg])).to.deep.equal(alone.map((w) => [w.code, w.route, w.at, w.msg]))
      // In walk order: the shared schema's places where its $ref is met, before the property after it.
      expect(after.map((w) => w.at)).to.deep.equal(allErrors
        ? [['body /properties/tags', 'body Slug#/properties/u', 'querystring /properties/tags'], ['body Slug#/properties/s/pattern', 'body /properties/odd~1name/pattern']]
        : [['body /properties/tags', 'querystring /properties/tags'], ['body /properties/odd~1name/pattern']])
    }
  })

  it('the user\'s schema objects are left as given', async () => {
    const body = { type: 'object', properties: { a: { type: 'string', pattern: redos }, b: { properties: { c: { type: 'integer' } } } } }
    const response = { type: 'object', properties: { a: { type: 'string' }, b: { properties: { c: { type: 'integer' } } } } }
    const before = JSON.stringify([body, response])
    const app = server()
    app.post('/first', { schema: { body: first } }, async () => ({}))
    app.post('/second', { schema: { body, response: { 200: response } } }, async (req) => req.body)
    await app.ready()
    const reply = await app.inject({ method: 'POST', url: '/second', payload: { a: 'x', b: { c: '3' } } })
    expect(reply.json()).to.deep.equal({ a: 'x', b: { c: 3 } })
    expect(JSON.stringify([body, response])).to.equal(before)
  })
})
