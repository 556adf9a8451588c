import { isIP } from 'node:net'
import proxyAddr from 'proxy-addr'
import type { IncomingMessage } from 'node:http'
import type { TLSSocket } from 'node:tls'
import { runtimeError } from '../errors/runtime-codes'
import { validHost } from './request-head'

/** Which proxy hops are trusted: Fastify's `trustProxy` option, compiled once at createServer. */
export type TrustFn = (address: string, hop: number) => boolean
export type TrustProxyOption = boolean | number | string | readonly string[] | TrustFn

/**
 * Fastify's rules: `true` trusts every hop, a number trusts that many hops, a string or list
 * names addresses/subnets (proxy-addr's syntax: `127.0.0.1`, `10.0.0.0/8`, `loopback`), a
 * function decides per hop. `false` (the default) trusts none: X-Forwarded-* are ignored.
 */
export function compileTrust(option: TrustProxyOption | undefined): TrustFn | null {
  if (option === undefined || option === false) return null
  if (option === true) return () => true
  if (typeof option === 'function') return option
  if (typeof option === 'number') return (_address, hop) => hop < option
  const list = typeof option === 'string' ? option.split(',').map((s) => s.trim()) : [...option]
  try {
    return proxyAddr.compile(list)
  } catch (cause) {
    throw runtimeError('ENC_ERR_SERVER_INVALID_TRUST_PROXY', { given: `'${list.join(', ')}'`, reason: cause instanceof Error ? cause.message : String(cause) })
  }
}

export function clientIp(raw: IncomingMessage, trust: TrustFn | null): string | undefined {
  if (trust === null) return raw.socket.remoteAddress
  const addresses = forwardedAddresses(raw, trust)
  return addresses[addresses.length - 1]
}

/** Every address from the server to the client, nearest first (Fastify's `request.ips`); undefined without trustProxy. */
export function clientIps(raw: IncomingMessage, trust: TrustFn | null): string[] | undefined {
  return trust === null ? undefined : forwardedAddresses(raw, trust)
}

/**
 * proxy-addr's walk of X-Forwarded-For (the socket's address, then each entry nearest first, up to
 * the first hop not trusted), held to one rule: every address is an IP. proxy-addr, and so Fastify
 * 3, hands back an entry as written: under `trustProxy: true` any client makes `request.ip`
 * `<script>` or `unknown`, which then reaches logs, rate-limit keys and allow-lists. An entry that
 * is an address with a port (`203.0.113.7:4711`, `[2001:db8::1]:4711`, as some cloud proxies
 * write) is taken as the address; any other non-IP entry ends the walk there, so `request.ip` is
 * the last hop that is an address: the proxy that passed the garbage on. README differences.
 */
function forwardedAddresses(raw: IncomingMessage, trust: TrustFn): string[] {
  const addresses = proxyAddr.all(raw, trust)
  // [0] is the socket's own address (undefined once it closed): kept as proxy-addr gives it.
  for (let i = 1; i < addresses.length; i++) {
    const address = addresses[i]
    if (isIP(address) !== 0) continue
    const bare = withoutPort(address)
    if (bare === null) { addresses.length = i; break }
    addresses[i] = bare
  }
  return addresses
}

function withoutPort(entry: string): string | null {
  const bracketed = /^\[([^\]]+)\]:\d{1,5}$/.exec(entry)
  if (bracketed !== null) return isIP(bracketed[1]) === 6 ? bracketed[1] : null
  const v4 = /^([\d.]+):\d{1,5}$/.exec(entry)
  return v4 !== null && isIP(v4[1]) === 4 ? v4[1] : null
}

function trustsPeer(raw: IncomingMessage, trust: TrustFn | null): boolean {
  return trust !== null && trust(raw.socket.remoteAddress ?? '', 0)
}

/** The last value of a comma-separated forwarded header. */
function lastForwarded(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined
  const text = Array.isArray(value) ? value[value.length - 1] : value
  const parts = text.split(',')
  return parts[parts.length - 1].trim() || undefined
}

export function clientHostname(raw: IncomingMessage, trust: TrustFn | null): string | undefined {
  if (trustsPeer(raw, trust)) {
    const forwarded = lastForwarded(raw.headers['x-forwarded-host'])
    // Held to the rule the Host header is (a bad Host is a 400 before any hook): an entry that is
    // no host[:port] (a path, userinfo, a space, raw non-ASCII) never becomes request.hostname,
    // where it would end up in the URLs an app builds from it; the Host is used instead.
    if (forwarded !== undefined && validHost(forwarded)) return forwarded
  }
  return raw.headers.host ?? raw.headers[':authority'] as string | undefined
}

export function clientProtocol(raw: IncomingMessage, trust: TrustFn | null): 'http' | 'https' {
  if (trustsPeer(raw, trust)) {
    // A scheme is case-insensitive (RFC 3986 §3.1): a proxy's 'HTTPS' is https.
    const forwarded = lastForwarded(raw.headers['x-forwarded-proto'])?.toLowerCase()
    if (forwarded === 'https' || forwarded === 'http') return forwarded
  }
  return (raw.socket as TLSSocket).encrypted === true ? 'https' : 'http'
}
