// The websocket frame fuzz (ws-fuzz.ts): a fixed seed set of connections to the fuzz app's echo
// route over @fastify/websocket, upgrade heads and frames mutated. Each valid upgrade is
// accepted, every valid message sent before the first hostile frame is echoed exactly and in
// order (fragmented ones too, with control frames between the fragments), other connections keep
// working, and afterwards no socket is left and nothing of ours was logged.
// `npm run fuzz -- --ws=1 --seeds=N --from=S` runs more seeds (bench/fuzz.ts).
import { expect } from 'chai'
import { recordingLogger } from '../support/servers'
import { notOurs } from './fuzz-run'
import { wsFuzzRun } from './ws-fuzz-drive'

describe('hardening: websocket frame fuzz (seeded, bounded)', function () {
  this.timeout(60_000)

  it('300 generated connections to a websocket echo route: valid upgrades accepted, valid messages echoed intact and in order, no socket left, nothing of ours logged', async () => {
    const unhandled: unknown[] = []
    const record = (error: unknown): void => { unhandled.push(error) }
    process.on('unhandledRejection', record)
    try {
      const logger = recordingLogger()
      const r = await wsFuzzRun(0x3f_0000, 300, 12, logger)
      expect(r.violations.slice(0, 10), r.violations.slice(0, 10).join('\n')).to.deep.equal([])
      expect(r.controlStatus, r.controlRest).to.equal(101)
      expect(r.sockets, 'open connections after the run').to.equal(0)
      expect(r.echoed, 'messages echoed').to.be.above(100)
      // ws refused hostile frames with its close codes (1002 protocol, 1007 bad UTF-8, 1009 too big).
      expect([...r.closeCodes.keys()]).to.include.members([1002, 1009])
      const errors = logger.entries.filter((e) => e.level === 'error' && !notOurs((e.obj?.err ?? e.obj) as Error & { code?: string }))
      expect(errors.map((e) => e.msg ?? JSON.stringify(e.obj).slice(0, 200))).to.deep.equal([])
    } finally {
      process.off('unhandledRejection', record)
    }
    expect(unhandled, String(unhandled[0])).to.deep.equal([])
  })
})
