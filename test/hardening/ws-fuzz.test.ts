// The websocket frame fuzz (ws-fuzz.ts): a fixed seed set of connections to the fuzz app's echo
// route over @fastify/websocket, upgrade heads and frames mutated. Each valid upgrade is
// accepted, every valid message sent before the first hostile frame is echoed exactly and in
// order (fragmented ones too, with control frames between the fragments), other connections keep
// working, and afterwards no socket is left and nothing of ours was logged.
// `npm run fuzz -- --ws=1 --seeds=N --from=S` runs more seeds (bench/fuzz.ts).
import { expect } from 'chai'
import { recordingLogger, track } from '../support/servers'
import { FUZZ_SERVER_OPTIONS, fuzzApp } from './fuzz-app'
import { notOurs } from './fuzz-run'
import { judgeWs, wsExchange, wsFuzzSession } from './ws-fuzz'

export async function wsFuzzRun(from: number, seeds: number, parallel: number, logger = recordingLogger()) {
  const { app, port } = await fuzzApp({ ...FUZZ_SERVER_OPTIONS, logger })
  track(app)
  const violations: string[] = []
  const closeCodes = new Map<number, number>()
  let next = from
  let echoed = 0
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < from + seeds) {
      const session = wsFuzzSession(next++)
      const wire = await wsExchange(port, session)
      echoed += Math.min(wire.messages.length, session.expected.length)
      if (wire.closeCode !== null) closeCodes.set(wire.closeCode, (closeCodes.get(wire.closeCode) ?? 0) + 1)
      for (const v of judgeWs(session, wire)) violations.push(`seed ${session.seed} [${session.mutations.join(', ')}]: ${v}`)
    }
  }))
  // Another connection after all of it: a plain session is echoed.
  let plain = 1
  while (!wsFuzzSession(plain).validHead) plain++
  const control = await wsExchange(port, { ...wsFuzzSession(plain), frames: [], expected: [] })
  let sockets = -1
  for (let i = 0; i < 250 && sockets !== 0; i++) {
    sockets = await new Promise<number>((resolve) => app.server.getConnections((_e, n) => resolve(n)))
    if (sockets !== 0) await new Promise((resolve) => setTimeout(resolve, 20))
  }
  await app.close()
  return { violations, closeCodes, echoed, controlStatus: control.status, controlRest: control.rest, sockets, logger }
}

describe('hardening: websocket frame fuzz (seeded, bounded)', function () {
  this.timeout(60_000)

  it('300 generated connections to a websocket echo route: valid upgrades accepted, valid messages echoed intact and in order, no socket left, nothing of ours logged', async () => {
    const unhandled: unknown[] = []
    const record = (error: unknown): void => { unhandled.push(error) }
    process.on('unhandledRejection', record)
    try {
      const r = await wsFuzzRun(0x3f_0000, 300, 12)
      expect(r.violations.slice(0, 10), r.violations.slice(0, 10).join('\n')).to.deep.equal([])
      expect(r.controlStatus, r.controlRest).to.equal(101)
      expect(r.sockets, 'open connections after the run').to.equal(0)
      expect(r.echoed, 'messages echoed').to.be.above(100)
      // ws refused hostile frames with its close codes (1002 protocol, 1007 bad UTF-8, 1009 too big).
      expect([...r.closeCodes.keys()]).to.include.members([1002, 1009])
      const errors = r.logger.entries.filter((e) => e.level === 'error' && !notOurs((e.obj?.err ?? e.obj) as Error & { code?: string }))
      expect(errors.map((e) => e.msg ?? JSON.stringify(e.obj).slice(0, 200))).to.deep.equal([])
    } finally {
      process.off('unhandledRejection', record)
    }
    expect(unhandled, String(unhandled[0])).to.deep.equal([])
  })
})
