/**
 * One websocket frame-fuzz run (ws-fuzz.ts) against the fuzz app: `seeds` connections with
 * bounded parallelism, each judged; then a plain connection must upgrade and no socket may be
 * left. Shared by ws-fuzz.test.ts and `npm run fuzz -- --ws=1` (bench/fuzz.ts).
 */
import type { Logger } from '../../src/runtime'
import { FUZZ_SERVER_OPTIONS, fuzzApp } from './fuzz-app'
import { judgeWs, wsExchange, wsFuzzSession } from './ws-fuzz'

export async function wsFuzzRun(from: number, seeds: number, parallel: number, logger: Logger) {
  const { app, port } = await fuzzApp({ ...FUZZ_SERVER_OPTIONS, logger })
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
  return { violations, closeCodes, echoed, controlStatus: control.status, controlRest: control.rest, sockets }
}
