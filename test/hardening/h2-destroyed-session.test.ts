// A TLS HTTP/2 session nghttp2 destroyed on a protocol error keeps its socket open in Node
// (http2-destroyed-session.ts): the server closes it. Replays the TLS frame fuzz's seed 335,
// which left its session open in 2 of 3 runs before the fix.
import { expect } from 'chai'
import { h2FuzzRun } from './h2-fuzz-drive'

describe('hardening: HTTP/2 session destroyed with its socket open', () => {
  it('a TLS HTTP/2 session nghttp2 destroyed on a bad SETTINGS value, its client then cutting the connection, has its socket closed (TLS fuzz seed 335, replayed 3 times)', async function () {
    this.timeout(30_000)
    const quiet = { info() {}, debug() {}, warn() {}, error() {} }
    for (let round = 0; round < 3; round++) {
      const r = await h2FuzzRun({ from: 335, seeds: 1, parallel: 1, secure: true, logger: quiet })
      expect(r.after, `round ${round}: seeds left open ${r.left.join(',')}`).to.deep.equal({ status: 200, sessions: 0, sockets: 0 })
    }
  })
})
