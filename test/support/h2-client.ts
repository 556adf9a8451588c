import { connect as http2Connect, type ClientHttp2Session } from 'node:http2'
import { tlsCert } from './tls'

const sessions: ClientHttp2Session[] = []

// Registered once, when the first test file imports this module: every session a test opened is
// destroyed after it, whatever the test's outcome, so a failing test leaves no socket behind.
afterEach(() => { for (const session of sessions.splice(0)) session.destroy() })

/** An HTTP/2 client session (h2c, or TLS trusting the test certificate), destroyed after the test. */
export function connectH2(url: string): ClientHttp2Session {
  const session = http2Connect(url, { ca: tlsCert })
  session.on('error', () => undefined)
  sessions.push(session)
  return session
}
