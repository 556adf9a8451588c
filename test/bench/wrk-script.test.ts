import { expect } from 'chai'
import { luaString, luaScript } from '../../bench/harness/wrk'
import { ENDPOINTS } from '../../bench/harness/endpoints'

/** What Lua reads from a long string literal: the text between the brackets, a first newline dropped. */
function readLong(literal: string): string {
  const open = /^\[(=*)\[/.exec(literal)
  expect(open, literal).to.not.equal(null)
  const close = `]${open![1]}]`
  const end = literal.indexOf(close, open![0].length)
  expect(end, 'the literal closes exactly at its end').to.equal(literal.length - close.length)
  const inner = literal.slice(open![0].length, end)
  return inner.startsWith('\n') ? inner.slice(1) : inner
}

describe('bench wrk script', () => {
  it('a Lua long string gives back any text, also one holding or ending in closing brackets, or starting with a newline', () => {
    for (const text of ['plain', 'a]]b', 'ends]', 'ends]=', ']=]]==]', '\nstarts with a newline', '', '{"tags":[["x"]]}']) {
      expect(readLong(luaString(text))).to.equal(text)
    }
  })

  it('header names are written as wrk.headers[ [[name]] ]: without the spaces, [[[ would parse as a call', () => {
    const headers = ENDPOINTS.find((e) => e.id === 'headers')!
    const script = luaScript({ endpoint: headers, pipelining: 1 } as Parameters<typeof luaScript>[0])
    expect(script).to.contain('wrk.headers[ [[x-tenant-id]] ] = [[acme-corp]]')
    expect(script).to.not.contain('[[[')
    expect(script.match(/^wrk\.headers\[ /gm)).to.have.length(30)
  })

  it('a body goes in whole, with its content type', () => {
    const bulk = ENDPOINTS.find((e) => e.id === 'bulk')!
    const script = luaScript({ endpoint: bulk, pipelining: 2 } as Parameters<typeof luaScript>[0])
    const literal = /^wrk\.body = (.*)$/m.exec(script)![1]
    expect(readLong(literal)).to.equal(bulk.body)
    expect(script).to.contain('wrk.headers["Content-Type"] = "application/json"')
    expect(script).to.contain('for i = 1, 2 do')
  })
})
