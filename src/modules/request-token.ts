/**
 * The request being served, as an injection token (NestJS's REQUEST): `@inject(REQUEST) request:
 * Request` in a provider or controller makes it request-scoped (docs/request-scope.md, "Request-scoped providers").
 * A symbol, since `Request` is a type: emitted constructor metadata would read Object.
 */
export const REQUEST: unique symbol = Symbol('REQUEST')
/** The reply of the request being served, as an injection token: `@inject(REPLY) reply: Reply`. */
export const REPLY: unique symbol = Symbol('REPLY')

export function isRequestToken(token: unknown): token is typeof REQUEST | typeof REPLY {
  return token === REQUEST || token === REPLY
}
