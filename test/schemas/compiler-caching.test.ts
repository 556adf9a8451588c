import { expect } from 'chai'
import { SchemaCompilers, ajv8CompilersFactory, pickSerializer } from '../../src/runtime/schemas'
import type { CompilersFactory, SharedSchema, ValidatorOptions, ValidatorPlugin } from '../../src/runtime/schemas'
import { compile, messageOf, storeTree, thrown } from './helpers'

describe('compilers per visible set of shared schemas (DESIGN §4)', () => {
  it('never shares a compiled validator between siblings that give the same $id different bodies', () => {
    const { a, b } = storeTree()
    a.add({ $id: 'thing', type: 'object', properties: { v: { type: 'integer' } } })
    b.add({ $id: 'thing', type: 'object', properties: { v: { type: 'string', maxLength: 2 } } })
    const compilers = new SchemaCompilers()
    const schema = { body: { $ref: 'thing#' } }
    const inA = compile(schema, { store: a, compilers })
    const inB = compile(schema, { store: b, compilers })
    expect(messageOf(inA.body, 'body', { v: 'abc' })).to.equal('body/v should be integer')
    expect(messageOf(inB.body, 'body', { v: 'abc' })).to.equal('body/v should NOT be longer than 2 characters')
    const data = { v: 5 }
    expect(messageOf(inB.body, 'body', data)).to.equal(null)
    expect(data).to.deep.equal({ v: '5' })
  })

  it('never shares a compiled serializer between siblings that give the same $id different bodies', () => {
    const { a, b } = storeTree()
    a.add({ $id: 'thing', type: 'object', properties: { v: { type: 'integer' } } })
    b.add({ $id: 'thing', type: 'object', properties: { v: { type: 'string' }, w: { type: 'boolean' } } })
    const compilers = new SchemaCompilers()
    const schema = { response: { 200: { $ref: 'thing#' } } }
    const inA = pickSerializer(compile(schema, { store: a, compilers }).response!, 200)!
    const inB = pickSerializer(compile(schema, { store: b, compilers }).response!, 200)!
    expect(inA({ v: 5, w: true })).to.equal('{"v":5}')
    expect(inB({ v: 5, w: true })).to.equal('{"v":"5","w":true}')
  })

  it('gives scopes without own schemas their nearest defining ancestor\'s compilers', () => {
    const { root, a, a1, b } = storeTree()
    const compilers = new SchemaCompilers()
    root.add({ $id: 'r', type: 'object' })
    a.add({ $id: 'in-a', type: 'object' })
    expect(compilers.validatorFor(a1)).to.equal(compilers.validatorFor(a))
    expect(compilers.validatorFor(b)).to.equal(compilers.validatorFor(root))
    expect(compilers.validatorFor(a)).to.not.equal(compilers.validatorFor(root))
    expect(compilers.serializerFor(a1)).to.equal(compilers.serializerFor(a))
    expect(compilers.serializerFor(a)).to.not.equal(compilers.serializerFor(b))
  })

  it('compiles each distinct schema once per visible set', () => {
    let compiled = 0
    const counting: ValidatorPlugin = (ajv: { addKeyword(name: string, def: object): void }) => {
      ajv.addKeyword('counted', { compile: () => { compiled++; return () => true } })
    }
    const { a, b } = storeTree()
    a.add({ $id: 'x', type: 'object' })
    b.add({ $id: 'y', type: 'object' })
    const compilers = new SchemaCompilers({ validator: { plugins: [counting] } })
    const body = () => ({ type: 'object', counted: true, properties: { n: { type: 'integer' } } })
    compile({ body: body() }, { store: a, compilers, url: '/one' })
    compile({ body: body(), querystring: body() }, { store: a, compilers, url: '/two' })
    expect(compiled).to.equal(1)
    compile({ body: { ...body(), required: ['n'] } }, { store: a, compilers, url: '/three' })
    expect(compiled).to.equal(2)
    compile({ body: body() }, { store: b, compilers, url: '/four' })
    expect(compiled).to.equal(3)
  })

  it('rebuilds when a schema is added to the visible set after a first build', () => {
    const { root, a1 } = storeTree()
    const compilers = new SchemaCompilers()
    const before = compilers.validatorFor(a1)
    root.add({ $id: 'late', type: 'object', required: ['z'] })
    expect(compilers.validatorFor(a1)).to.not.equal(before)
    const { body } = compile({ body: { $ref: 'late#' } }, { store: a1, compilers })
    expect(messageOf(body, 'body', {})).to.equal("body should have required property 'z'")
  })

  it('keeps the user\'s shared schema and route schema objects unchanged', () => {
    const { root, a } = storeTree()
    const shared = { $id: 'user', type: 'object', properties: { name: { type: 'string', default: 'anon' } } }
    const route = { body: { user: { $ref: 'user#' } }, response: { 200: { $ref: 'user#' } } }
    root.add(shared)
    const before = JSON.stringify([shared, route])
    const compiled = compile(route, { store: a })
    compiled.body!({ user: {} })
    pickSerializer(compiled.response!, 200)!({ name: 'x' })
    expect(JSON.stringify([shared, route])).to.equal(before)
    expect(a.get('user')).to.equal(shared)
  })
})

describe('schemaController.compilersFactory', () => {
  it('builds each compiler once per defining store, from the visible schemas and the validator options', () => {
    const calls: Array<[string, string[], unknown?]> = []
    const factory: CompilersFactory = {
      buildValidator(schemas: Record<string, SharedSchema>, options: ValidatorOptions) {
        calls.push(['validator', Object.keys(schemas), options.customOptions])
        return () => () => true
      },
      buildSerializer(schemas: Record<string, SharedSchema>) {
        calls.push(['serializer', Object.keys(schemas)])
        return () => (data: unknown) => `custom:${JSON.stringify(data)}`
      },
    }
    const { root, a, a1 } = storeTree()
    root.add({ $id: 'r', type: 'object' })
    a.add({ $id: 'in-a', type: 'object' })
    const compilers = new SchemaCompilers({ validator: { customOptions: { allErrors: true } }, schemaController: { compilersFactory: factory } })
    const schema = { body: { type: 'object' }, response: { 200: { type: 'object' } } }
    const compiled = compile(schema, { store: a1, compilers, url: '/one' })
    compile(schema, { store: a, compilers, url: '/two' })
    compile(schema, { store: root, compilers, url: '/three' })
    expect(calls).to.deep.equal([
      ['validator', ['r', 'in-a'], { allErrors: true }],
      ['serializer', ['r', 'in-a']],
      ['validator', ['r'], { allErrors: true }],
      ['serializer', ['r']],
    ])
    expect(pickSerializer(compiled.response!, 200)!({ a: 1 })).to.equal('custom:{"a":1}')
  })

  it('keeps the default serializer when the factory only builds validators', () => {
    const compilers = new SchemaCompilers({ schemaController: { compilersFactory: { buildValidator: () => () => () => false } } })
    const { body, response } = compile({ body: { type: 'object' }, response: { 200: { a: { type: 'string' } } } }, { compilers })
    expect(body!({})).to.deep.equal({ errors: [] })
    expect(pickSerializer(response!, 200)!({ a: 'x', b: 1 })).to.equal('{"a":"x"}')
  })

  it('refuses a factory that does not return a compiler function', () => {
    const factory = { buildValidator: () => 'nope' } as unknown as CompilersFactory
    const error = thrown(() => compile({ body: { type: 'object' } }, { compilersOptions: { schemaController: { compilersFactory: factory } } }))
    expect(error.code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
    expect(error.message).to.contain('buildValidator()').and.contain('scope root')
  })

  it('turns a throw while building into a coded error naming the scope and its schemas', () => {
    const { root, a } = storeTree()
    root.add({ $id: 'broken', type: 'not-a-type' })
    const error = thrown(() => compile({ body: { type: 'object' } }, { store: a }))
    expect(error.code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
    expect(error.message).to.contain('scope root > a').and.contain('broken')
    expect(error.cause).to.be.instanceOf(Error)
  })
})

describe('route schemas stay private to their route', () => {
  for (const [name, compilers] of [['ajv 6', () => new SchemaCompilers()], ['ajv 8', () => new SchemaCompilers({ schemaController: { compilersFactory: ajv8CompilersFactory() } })]] as const) {
    it(`${name}: two routes may give the same $id different bodies, in one scope or in siblings`, () => {
      const { root, a, b } = storeTree()
      const shared = compilers()
      const inA = compile({ body: { $id: 'payload', type: 'object', required: ['x'] } }, { store: a, compilers: shared, url: '/a' })
      const inB = compile({ body: { $id: 'payload', type: 'object', required: ['y'] } }, { store: b, compilers: shared, url: '/b' })
      const inRoot = compile({ body: { $id: 'payload', type: 'object', required: ['z'] } }, { store: root, compilers: shared, url: '/r' })
      expect(messageOf(inA.body, 'body', {})).to.match(/property 'x'$/)
      expect(messageOf(inB.body, 'body', {})).to.match(/property 'y'$/)
      expect(messageOf(inRoot.body, 'body', {})).to.match(/property 'z'$/)
    })

    it(`${name}: a route cannot $ref another route's schema $id (only addSchema shares)`, () => {
      const { a, b } = storeTree()
      const shared = compilers()
      compile({ body: { $id: 'private-body', type: 'object' } }, { store: a, compilers: shared, url: '/a' })
      const error = thrown(() => compile({ body: { $ref: 'private-body#' } }, { store: b, compilers: shared, url: '/b' }))
      expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    })
  }
})
