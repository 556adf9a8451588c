// HTTP preconditions (RFC 9110 section 13), as docs/recipes-content-api.md writes them.
import { HttpError, type Request } from '../../../src'

function tagsOf(header: string): string[] {
  return header.split(',').map((tag) => tag.trim()).filter((tag) => tag !== '')
}
const opaque = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag)
const seconds = (date: Date): number => Math.floor(date.getTime() / 1000) * 1000

/** GET/HEAD (RFC 9110 13.2.2): true when the client's copy is current, so the answer is a 304. */
export function notModified(request: Request, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = request.headers['if-none-match']
  if (ifNoneMatch !== undefined) return tagsOf(ifNoneMatch).some((tag) => tag === '*' || opaque(tag) === opaque(etag))
  const since = Date.parse(request.headers['if-modified-since'] ?? '')
  return !Number.isNaN(since) && seconds(lastModified) <= since
}

/** PUT/PATCH: 428 with no precondition, 412 when it fails. */
export function checkPreconditions(request: Request, etag: string, lastModified: Date): void {
  const ifMatch = request.headers['if-match']
  if (ifMatch !== undefined) {
    if (!tagsOf(ifMatch).some((tag) => tag === '*' || (!tag.startsWith('W/') && tag === etag))) {
      throw new HttpError(412, 'The article changed since you read it: GET it again and reapply your change', { code: 'ARTICLE_PRECONDITION_FAILED', headers: { etag } })
    }
    return
  }
  const since = Date.parse(request.headers['if-unmodified-since'] ?? '')
  if (Number.isNaN(since)) throw new HttpError(428, 'Send If-Match with the ETag you read (or If-Unmodified-Since)', { code: 'ARTICLE_PRECONDITION_REQUIRED' })
  if (seconds(lastModified) > since) throw new HttpError(412, 'The article changed since If-Unmodified-Since', { code: 'ARTICLE_PRECONDITION_FAILED' })
}
