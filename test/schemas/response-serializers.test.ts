import { expect } from 'chai'
import { pickSerializer } from '../../src/runtime/schemas'
import type { SerializerCompiler } from '../../src/runtime/schemas'
import { compile } from './helpers'

/** A serializer compiler whose functions say which response key they were compiled for. */
const labelled: SerializerCompiler = ({ httpStatus }) => () => httpStatus

function pick(response: Record<string, unknown>, status: number): string | null {
  const compiled = compile({ response }, { serializerCompiler: labelled }).response!
  const fn = pickSerializer(compiled, status)
  return fn === null ? null : fn({})
}

describe('§3.1.5 response serializer selection', () => {
  const all = { 200: {}, 201: {}, '2xx': {}, '4XX': {}, default: {} }

  it('picks the exact status first', () => {
    expect(pick(all, 200)).to.equal('200')
    expect(pick(all, 201)).to.equal('201')
  })

  it('then the range key of the status', () => {
    expect(pick(all, 204)).to.equal('2xx')
    expect(pick(all, 404)).to.equal('4xx')
    expect(pick(all, 499)).to.equal('4xx')
  })

  it('then default', () => {
    expect(pick(all, 500)).to.equal('default')
    expect(pick(all, 302)).to.equal('default')
    expect(pick({ default: {} }, 200)).to.equal('default')
  })

  it('else none, so the runtime falls back to JSON.stringify', () => {
    expect(pick({ 200: {} }, 201)).to.equal(null)
    expect(pick({ '2xx': {} }, 500)).to.equal(null)
    expect(pick({ 404: {} }, 200)).to.equal(null)
  })

  it('an exact code outside its own hundred does not leak into the range', () => {
    expect(pick({ 200: {}, '4xx': {} }, 299)).to.equal(null)
  })

  it('handles status codes outside 100-599 by default only', () => {
    expect(pick({ '2xx': {}, default: {} }, 1000)).to.equal('default')
    expect(pick({ '2xx': {} }, 1000)).to.equal(null)
    expect(pick({ '2xx': {} }, -1)).to.equal(null)
  })

  it('gives null response serializers for a route without a response schema', () => {
    expect(compile({ body: { type: 'object' } }).response).to.equal(null)
    expect(compile({ response: {} }).response).to.equal(null)
  })
})

describe('§1.6 default serializer output', () => {
  it('leaves out properties that are not in the response schema', () => {
    const { response } = compile({ response: { 200: { id: { type: 'integer' }, name: { type: 'string' } } } })
    expect(pickSerializer(response!, 200)!({ id: 1, name: 'Ada', password: 'secret', token: 't' })).to.equal('{"id":1,"name":"Ada"}')
  })

  it('leaves out nested properties and array item properties that are not in the schema', () => {
    const { response } = compile({
      response: {
        '2xx': {
          type: 'object',
          properties: {
            user: { type: 'object', properties: { name: { type: 'string' } } },
            list: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } },
          },
        },
      },
    })
    const text = pickSerializer(response!, 201)!({ user: { name: 'a', hash: 'h' }, list: [{ id: 1, x: 1 }, { id: 2, y: 2 }], extra: true })
    expect(text).to.equal('{"user":{"name":"a"},"list":[{"id":1},{"id":2}]}')
  })

  it('writes values by the schema type and supports nullable', () => {
    const { response } = compile({ response: { default: { n: { type: 'integer' }, s: { type: 'string', nullable: true } } } })
    expect(pickSerializer(response!, 500)!({ n: '7', s: null })).to.equal('{"n":7,"s":null}')
  })

  it('serializes non-object response schemas', () => {
    const { response } = compile({ response: { 200: { type: 'array', items: { type: 'string' } } } })
    expect(pickSerializer(response!, 200)!(['a', 'b'])).to.equal('["a","b"]')
  })
})
