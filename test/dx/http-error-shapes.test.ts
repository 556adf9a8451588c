// new HttpError() with the shapes people bring from elsewhere (NestJS's `new NotFoundException({ message, code })`,
// Error's and http-errors' argument orders, headers given as the options): each is refused with a
// message that shows what was given as code would write it, never "[object Object]", and the shape to write instead.
import { expect } from 'chai'
import { HttpError } from '../../src'

function refusal(build: () => unknown): Error & { code?: string } {
  try { build() } catch (error) { return error as Error & { code?: string } }
  throw new Error('accepted')
}
const loose = HttpError as unknown as new (...args: unknown[]) => HttpError

describe('dx: new HttpError() refuses the shapes of other libraries with a readable message (ENC_ERR_REPLY_INVALID_HTTP_ERROR)', () => {
  it("NestJS's object form, new HttpError(404, { message, code }): shows the object and the options form to use", () => {
    const error = refusal(() => new loose(404, { message: 'No cat', code: 'CAT_NOT_FOUND' }))
    expect(error.code).to.equal('ENC_ERR_REPLY_INVALID_HTTP_ERROR')
    expect(error.message).to.not.include('[object Object]')
    expect(error.message).to.include("the message must be a string, got { message: 'No cat', code: 'CAT_NOT_FOUND' }")
    expect(error.message).to.include("new HttpError(404, 'No cat with id 7', { code: 'CAT_NOT_FOUND', details: { catId: 7 } })")
  })

  it("Error's order, new HttpError('Not found', 404): says the status comes first", () => {
    const error = refusal(() => new loose('Not found', 404))
    expect(error.message).to.include("new HttpError('Not found' (the status comes first: new HttpError(404, 'Not found')))")
  })

  it('an object as the status (new HttpError({ statusCode: 404 })) and a non-object options are shown as written', () => {
    expect(refusal(() => new loose({ statusCode: 404 })).message).to.include('new HttpError({ statusCode: 404 })')
    expect(refusal(() => new loose(401, 'x', 'Bearer')).message).to.include("the options must be an object, got 'Bearer'")
  })

  it('headers given as the options (http-errors\' createError(401, msg, { headers }) is right, the headers themselves are not): the unknown keys and where headers go', () => {
    const error = refusal(() => new loose(401, 'Who are you?', { 'WWW-Authenticate': 'Bearer' }))
    expect(error.message).to.include("unknown option 'WWW-Authenticate'")
    expect(error.message).to.include("{ headers: { 'www-authenticate': 'Bearer' } }")
  })

  it('a header value that is an object, or headers that are a Map, are shown as written', () => {
    const nested = refusal(() => new HttpError(429, 'Slow down', { headers: { 'retry-after': { seconds: 5 } as unknown as string } }))
    expect(nested.message).to.include('retry-after: { seconds: 5 }')
    const map = refusal(() => new HttpError(429, 'Slow down', { headers: new Map([['retry-after', '5']]) as unknown as Record<string, string> }))
    expect(map.message).to.include("Map(1) { 'retry-after' => '5' }")
    for (const error of [nested, map]) expect(error.message).to.not.match(/\[object \w+\]/)
  })

  it('the shapes it takes are unchanged: status, message, { code, cause, details, headers }', () => {
    const error = new HttpError(401, 'Who are you?', { code: 'AUTH', cause: new Error('x'), details: { realm: 'api' }, headers: { 'www-authenticate': 'Bearer' } })
    expect(error).to.include({ statusCode: 401, message: 'Who are you?', code: 'AUTH' })
    expect(new HttpError(404).message).to.equal('Not Found')
  })
})
