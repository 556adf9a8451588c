// A loopback OIDC issuer for the multi-tenant tests: serves its JWKS over HTTP (the keys it
// publishes can change, for rotation) and signs tokens with jose, as an identity provider would.
import { createServer, type Server } from 'node:http'
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose'

export const ISSUER = 'https://idp.test/'
export const AUDIENCE = 'https://api.test'

export interface SigningKey { kid: string; alg: 'RS256' | 'ES256'; privateKey: CryptoKey; jwk: JWK }

export async function signingKey(kid: string, alg: 'RS256' | 'ES256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg)
  return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } }
}

export interface TokenOptions { at: Date; ttl?: number; nbf?: number; aud?: string; iss?: string }

export function sign(key: SigningKey, claims: Record<string, unknown>, o: TokenOptions): Promise<string> {
  const iat = Math.floor(o.at.getTime() / 1000)
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid }).setIssuedAt(iat)
    .setIssuer(o.iss ?? ISSUER).setAudience(o.aud ?? AUDIENCE).setExpirationTime(iat + (o.ttl ?? 300))
  if (o.nbf !== undefined) jwt = jwt.setNotBefore(o.nbf)
  return jwt.sign(key.privateKey)
}

export interface Issuer { jwksUrl: string; publish(keys: SigningKey[]): void; fetches(): number; close(): Promise<void> }

export async function startIssuer(keys: SigningKey[]): Promise<Issuer> {
  let published = keys
  let fetches = 0
  const server: Server = createServer((req, res) => {
    if (req.url !== '/jwks') { res.statusCode = 404; res.end(); return }
    fetches++
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ keys: published.map((k) => k.jwk) }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    jwksUrl: `http://127.0.0.1:${port}/jwks`,
    publish: (next) => { published = next },
    fetches: () => fetches,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}
