// The committed test certificate (test/fixtures/tls): self-signed for localhost and 127.0.0.1,
// valid 100 years, made with
//   openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 36500 \
//     -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1"
// It protects nothing: it only lets tests speak real TLS over loopback.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { connect as netConnect, type Socket } from 'node:net'
import { connect as tlsConnect, type TLSSocket } from 'node:tls'
import { within } from './raw-http'

// Compiled tests run from dist/test/support; the .pem files stay in the source tree.
const fixtures = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'tls')

export const tlsKey = readFileSync(join(fixtures, 'key.pem'))
export const tlsCert = readFileSync(join(fixtures, 'cert.pem'))

/** A TLS connection to `address` (https://host:port) trusting the test certificate, once its handshake is done. */
export async function tlsClient(address: string): Promise<TLSSocket> {
  const { hostname, port } = new URL(address)
  const socket = tlsConnect({ host: hostname, port: Number(port), ca: tlsCert, servername: 'localhost' })
  await within(new Promise<void>((resolve, reject) => {
    socket.once('secureConnect', () => resolve())
    socket.once('error', reject)
  }), 5_000, 'TLS handshake')
  return socket
}

/** Writes `text` on a fresh TLS connection and collects what comes back until the server closes it. */
export async function tlsExchange(address: string, text: string | Buffer): Promise<string> {
  const socket = await tlsClient(address)
  let received = ''
  socket.setEncoding('latin1')
  socket.on('data', (chunk: string) => { received += chunk })
  const closed = new Promise<void>((resolve) => { socket.once('close', () => resolve()) })
  socket.on('error', () => undefined)
  socket.write(text)
  await within(closed, 5_000, 'waiting for the server to close the TLS connection')
  return received
}

/** A plain TCP connection (no TLS, no HTTP/2) that writes `bytes` and resolves with what came back once the server has closed it. */
export function plainExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url)
  return within(new Promise<string>((resolve) => {
    const socket: Socket = netConnect({ host: hostname, port: Number(port) }, () => { socket.write(bytes) })
    let received = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => { received += chunk })
    socket.on('error', () => undefined)
    socket.on('close', () => resolve(received))
  }), 5_000, 'waiting for the server to close the plain connection')
}
