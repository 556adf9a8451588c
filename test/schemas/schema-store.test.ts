import { expect } from 'chai'
import { SchemaStore } from '../../src/runtime/schemas'
import { storeTree, thrown } from './helpers'

const user = { $id: 'user', type: 'object', properties: { name: { type: 'string' } } }

describe('schema store: addSchema refusals (§2.2)', () => {
  for (const bad of [null, 'user', 42, [user]]) {
    it(`refuses ${JSON.stringify(bad)} as not an object`, () => {
      const { root } = storeTree()
      const error = thrown(() => root.add(bad))
      expect(error.code).to.equal('ENC_ERR_SCH_NOT_OBJECT')
      expect(error.message).to.contain('scope root')
    })
  }

  for (const id of [undefined, 7, '']) {
    it(`refuses a schema whose $id is ${JSON.stringify(id)}`, () => {
      const { a } = storeTree()
      const error = thrown(() => a.add({ $id: id, type: 'object' }))
      expect(error.code).to.equal('ENC_ERR_SCH_MISSING_ID')
      expect(error.message).to.contain('root > a').and.contain('$id')
    })
  }

  it('refuses an $id already declared in the same scope', () => {
    const { a } = storeTree()
    a.add(user)
    const error = thrown(() => a.add({ ...user }))
    expect(error.code).to.equal('ENC_ERR_SCH_DUPLICATE_ID')
    expect(error.message).to.contain("'user'").and.contain('root > a')
  })

  it('refuses an $id that an ancestor declared, naming both scopes', () => {
    const { root, a1 } = storeTree()
    root.add(user)
    const error = thrown(() => a1.add({ ...user }))
    expect(error.code).to.equal('ENC_ERR_SCH_DUPLICATE_ID')
    expect(error.message).to.contain('root > a > a1').and.contain('its ancestor scope root,')
  })

  it('refuses an $id that a descendant declared first, naming both scopes', () => {
    const { root, a1 } = storeTree()
    a1.add(user)
    const error = thrown(() => root.add({ ...user }))
    expect(error.code).to.equal('ENC_ERR_SCH_DUPLICATE_ID')
    expect(error.message).to.contain('scope root:').and.contain('descendant scope root > a > a1')
  })

  it('lets sibling scopes each declare the same $id', () => {
    const { a, b } = storeTree()
    a.add({ $id: 'user', type: 'string' })
    b.add({ $id: 'user', type: 'integer' })
    expect(a.get('user')).to.deep.equal({ $id: 'user', type: 'string' })
    expect(b.get('user')).to.deep.equal({ $id: 'user', type: 'integer' })
  })

  it('§1.6 refuses $async anywhere in the schema, pointing to a preHandler hook', () => {
    const { root } = storeTree()
    const error = thrown(() => root.add({ $id: 'x', type: 'object', properties: { a: { $async: true, type: 'string' } } }))
    expect(error.code).to.equal('ENC_ERR_SCH_ASYNC')
    expect(error.message).to.contain('/properties/a').and.contain('preHandler')
    expect(root.get('x')).to.equal(undefined)
  })

  it('accepts $async: false and a property that is merely named $async', () => {
    const { root } = storeTree()
    root.add({ $id: 'x', $async: false, type: 'object' })
    root.add({ $id: 'y', type: 'object', properties: { $async: { type: 'boolean' } }, default: { $async: true } })
    expect(Object.keys(root.visible())).to.deep.equal(['x', 'y'])
  })
})

describe('schema store: visibility (§3.3.4)', () => {
  it('get() finds own schemas, then ancestors', () => {
    const { root, a, a1 } = storeTree()
    root.add(user)
    a.add({ $id: 'team', type: 'object' })
    expect(a1.get('user')).to.equal(root.get('user'))
    expect(a1.get('team')).to.deep.equal({ $id: 'team', type: 'object' })
    expect(a1.getOwner('user')).to.equal(root)
    expect(a1.getOwner('team')).to.equal(a)
    expect(a1.has('team')).to.equal(true)
  })

  it('getSchemas() (visible) holds own and ancestors, never descendants or siblings', () => {
    const { root, a, a1, b } = storeTree()
    root.add({ $id: 'r', type: 'object' })
    a.add({ $id: 'in-a', type: 'object' })
    a1.add({ $id: 'in-a1', type: 'object' })
    b.add({ $id: 'in-b', type: 'object' })
    expect(Object.keys(root.visible())).to.deep.equal(['r'])
    expect(Object.keys(a.visible())).to.deep.equal(['r', 'in-a'])
    expect(Object.keys(a1.visible())).to.deep.equal(['r', 'in-a', 'in-a1'])
    expect(Object.keys(b.visible())).to.deep.equal(['r', 'in-b'])
    expect(a.get('in-a1')).to.equal(undefined)
    expect(a.getOwner('in-b')).to.equal(null)
  })

  it('sees a schema an ancestor adds after the child store was created', () => {
    const { root, a1 } = storeTree()
    root.add(user)
    expect(a1.visible()).to.have.property('user')
  })

  it('own() lists only the scope\'s own schemas', () => {
    const { root, a } = storeTree()
    root.add(user)
    a.add({ $id: 'team', type: 'object' })
    expect(Object.keys(a.own())).to.deep.equal(['team'])
    expect(root.hasOwnSchemas()).to.equal(true)
  })
})

describe('schema store: defining store and tree-wide declarations', () => {
  it('a scope without own schemas shares the nearest ancestor that has some, else the root', () => {
    const { root, a, a1, b } = storeTree()
    expect(a1.definingStore()).to.equal(root)
    a.add(user)
    expect(a1.definingStore()).to.equal(a)
    expect(b.definingStore()).to.equal(root)
    a1.add({ $id: 'mine', type: 'object' })
    expect(a1.definingStore()).to.equal(a1)
  })

  it('counts the visible schemas, which only grow', () => {
    const { root, a, a1, b } = storeTree()
    root.add({ $id: 'r', type: 'object' })
    a.add(user)
    b.add({ $id: 'other', type: 'object' })
    expect(a1.visibleCount()).to.equal(2)
    expect(b.visibleCount()).to.equal(2)
    expect(root.visibleCount()).to.equal(1)
  })

  it('finds every scope in the tree that declares an $id', () => {
    const { root, a1, b } = storeTree()
    a1.add(user)
    b.add({ ...user })
    expect(root.declarations('user').map((store) => store.scopePath)).to.deep.equal(['root > a > a1', 'root > b'])
    expect(root.declarations('nothing')).to.deep.equal([])
    expect(a1.root).to.equal(root)
  })

  it('keeps separate trees apart', () => {
    const one = new SchemaStore({ parent: null, scopePath: 'root' })
    const two = new SchemaStore({ parent: null, scopePath: 'root' })
    one.add(user)
    two.add({ ...user })
    expect(two.declarations('user')).to.have.length(1)
  })
})
