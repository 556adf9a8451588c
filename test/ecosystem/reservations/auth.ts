// The reservations service of docs/recipes-reservations.md: who (JwtGuard) and what (RoleGuard).
import { HttpError, bearerAuthSecurity, describeSecurity, injectable, routeMetadata, type Request } from '../../../src'

// @fastify/jwt's request members, read through a cast: the recipe's `declare module 'enclave'` would
// be global to the whole test program here.
type JwtRequest = { jwtVerify(): Promise<unknown>; user: unknown }
const jwtOf = (request: Request): JwtRequest => request as unknown as JwtRequest

export type Role = 'guest' | 'member' | 'admin'
export interface Principal { sub: string; role: Role }

/** Which roles a route admits: `@Roles(['member', 'admin'])` on a method or a controller. */
export const Roles = routeMetadata<readonly Role[]>('roles')

/** Who: a valid token (401 from @fastify/jwt when missing, expired or forged) with a known role. */
@injectable()
export class JwtGuard {
  async handle(request: Request): Promise<void> {
    await jwtOf(request).jwtVerify()
    const { role } = principal(request)
    if (role !== 'guest' && role !== 'member' && role !== 'admin') throw new HttpError(401, 'The token names no known role', { code: 'AUTH_UNKNOWN_ROLE' })
  }
}
describeSecurity(JwtGuard, bearerAuthSecurity)   // openapi(): the bearer scheme and its 401 on every guarded route

/** What: the route's `@Roles([...])` (403 when the role is not among them). */
@injectable()
export class RoleGuard {
  handle(request: Request): boolean {
    const allowed = Roles.of(request)
    return allowed === undefined || allowed.includes(principal(request).role)
  }
}

export function principal(request: Request): Principal {
  return jwtOf(request).user as Principal
}
