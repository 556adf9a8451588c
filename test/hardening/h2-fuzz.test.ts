// The HTTP/2 frame fuzz: a fixed seed set of generated connections (h2-fuzz-frames.ts: HPACK
// blocks and frames mutated from valid requests to the fuzz app) over h2c and over TLS. Every
// stream Enclave answered keeps the error contract, no DATA carries internal text, an intact
// stream on a live connection is answered, and afterwards the server answers a normal request
// with no session, socket, listener or descriptor left over and nothing of ours logged.
// `npm run fuzz -- --h2=1 --seeds=N --from=S [--tls=1]` runs more seeds (bench/fuzz.ts).
import { readdirSync } from 'node:fs'
import { expect } from 'chai'
import { recordingLogger } from '../support/servers'
import { notOurs } from './fuzz-run'
import { h2FuzzRun } from './h2-fuzz-drive'

const fds = (): number => readdirSync('/proc/self/fd').length

/** Not ours to count as failures: what fuzz-run.ts excludes. */
const excused = (err: (Error & { code?: string }) | undefined): boolean => notOurs(err)

describe('hardening: HTTP/2 frame fuzz (seeded, bounded)', function () {
  this.timeout(60_000)

  for (const [transport, secure, from, seeds] of [['h2c', false, 0x2f_0000, 200], ['TLS', true, 0x2f_8000, 60]] as const) {
    it(`${seeds} generated connections over ${transport}: answers in the error contract, intact streams answered, no session or socket left, nothing of ours logged`, async () => {
      const logger = recordingLogger()
      const unhandled: unknown[] = []
      const record = (error: unknown): void => { unhandled.push(error) }
      process.on('unhandledRejection', record)
      const before = fds()
      try {
        const report = await h2FuzzRun({ from, seeds, parallel: 8, secure, logger })
        expect(report.violations.slice(0, 10), report.violations.slice(0, 10).join('\n')).to.deep.equal([])
        expect(report.after).to.deep.equal({ status: 200, sessions: 0, sockets: 0 })
        // The generator reached handlers, refusals and connection errors.
        expect([...report.statuses.keys()].filter((s) => s >= 400).length).to.be.at.least(6)
        expect([...report.goaways.values()].reduce((a, b) => a + b, 0), 'connections ended with GOAWAY').to.be.above(seeds / 10)
      } finally {
        process.off('unhandledRejection', record)
      }
      expect(unhandled, String(unhandled[0])).to.deep.equal([])
      expect(fds(), 'file descriptors after the run').to.be.at.most(before + 2)
      const errors = logger.entries.filter((e) => e.level === 'error' && !excused((e.obj?.err ?? e.obj) as Error & { code?: string }))
      expect(errors.map((e) => e.msg ?? JSON.stringify(e.obj).slice(0, 200))).to.deep.equal([])
    })
  }
})
