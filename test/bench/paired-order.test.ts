import { expect } from 'chai'
import { pairedOrder, rotate } from '../../bench/harness/stats'

const isA = (s: string): boolean => s === 'decorators'
const isB = (s: string): boolean => s === 'runtime'
const lineup = ['decorators', 'runtime', 'fastify3', 'fastify5', 'express', 'raw']

describe('bench schedule: the decorator layer and the runtime API run back to back (issue 16)', () => {
  it('in every round and rotation the pair is adjacent, and every contender runs once', () => {
    for (let round = 0; round < 12; round++) {
      for (let by = 0; by < 12; by++) {
        const order = pairedOrder(lineup, by, round, [isA, isB])
        expect([...order].sort()).to.deep.equal([...lineup].sort())
        expect(Math.abs(order.indexOf('decorators') - order.indexOf('runtime'))).to.equal(1)
      }
    }
  })

  it('which of the two runs first alternates from round to round', () => {
    const first = (round: number): string => pairedOrder(lineup, 0, round, [isA, isB]).find((s) => isA(s) || isB(s))!
    expect([0, 1, 2, 3].map(first)).to.deep.equal(['decorators', 'runtime', 'decorators', 'runtime'])
  })

  it('the round still starts with a different unit each time, as rotate does', () => {
    const starts = [0, 1, 2, 3, 4].map((by) => pairedOrder(lineup, by, 0, [isA, isB])[0])
    expect(starts).to.deep.equal(['decorators', 'fastify3', 'fastify5', 'express', 'raw'])
  })

  it('without both members of the pair it is plain rotation', () => {
    const partial = ['runtime', 'fastify3', 'raw']
    expect(pairedOrder(partial, 1, 0, [isA, isB])).to.deep.equal(rotate(partial, 1))
  })
})
