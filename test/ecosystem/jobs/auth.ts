import { HttpError, injectable, type Request } from '../../../src'

// The app augments @fastify/jwt's FastifyJWT ({ user: { sub: string } }) and picks jwtVerify/user
// onto RequestDecorations (docs/recipes-jobs-webhooks.md); the suite compiles every test in one
// program, where test/types declares FastifyJWT otherwise, so this copy reads them through one view.
type JwtRequest = { jwtVerify(): Promise<{ sub: string }>; user: { sub: string } }
export const subjectOf = (request: Request): string => (request as unknown as JwtRequest).user.sub

/** Bearer JWT on onRequest: a bad token is refused before the rate limiter counts it. */
@injectable()
export class JwtGuard {
  async handle(request: Request): Promise<void> {
    try {
      await (request as unknown as JwtRequest).jwtVerify()
    } catch {
      throw new HttpError(401, 'A valid bearer token is required')
    }
  }
}
