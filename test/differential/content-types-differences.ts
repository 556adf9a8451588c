// README differences the `content-types` family meets (content-types.ts) beyond the media-type
// and code rules every family shares (known-differences.ts): a preParsing hook's replacement
// stream is not held to the Content-Length, and hasContentTypeParser('*') sees a catch-all.
import type { Answer, Case } from './case'
import type { KnownDifference } from './difference-types'
import { declaredLength, regexpInChild } from './content-types'

function codeOf(a: Answer): unknown {
  const b = a.body as { code?: unknown } | null
  return b !== null && typeof b === 'object' ? b.code : undefined
}

/** Whether the scope that answered (the handler's tag) sees a `*` parser, read off the case's summary. */
function catchAllVisible(c: Case, tag: string): boolean {
  const declaredIn = /parsers \((root|child)\)/.exec(c.summary)?.[1]
  // The parser list is the only place the summary names it.
  const catchAll = /catch-all buffer/.test(c.summary)
  const childAdds = declaredIn === 'child' && /child removes all, adds \*/.test(c.summary)
  const childRemoves = declaredIn === 'child' && /child removes all/.test(c.summary)
  if (tag === 'root') return declaredIn === 'root' && catchAll
  return childAdds || (catchAll && (declaredIn === 'child' || !childRemoves))
}

export const CONTENT_TYPES_DIFFERENCES: KnownDifference[] = [
  {
    id: 'regexp-parsers-in-children',
    readme: 'a child scope sees its ancestors\' RegExp parsers (Fastify 3.27.4\'s children lose them)',
    async rewrite(_f, { c, replay }) {
      if (c.family !== 'content-types' || regexpInChild.on || !/parsers \(root\): [^;]*regexp/.test(c.summary) || c.request.url.split('?')[0] !== '/in') return undefined
      // Fastify 3 asked again (and in every later replay of the case) with the child declaring them.
      regexpInChild.on = true
      return await replay(c.request)
    },
  },
  {
    id: 'preparsing-stream-not-length-checked',
    readme: 'A preParsing hook\'s replacement stream is read as it comes: its length is not compared with the\n  request\'s `Content-Length`',
    async rewrite(f, { c, replay }) {
      if (c.family !== 'content-types' || declaredLength.on || !/preParsing (replaces|upper-cases)/.test(c.summary)) return undefined
      const code = codeOf(f)
      if (code !== 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' && code !== 'ENC_ERR_CTP_INVALID_CONTENT_LENGTH') return undefined
      // Fastify 3 asked again (and in every later replay of the case) with the hook declaring the
      // request's length on its stream, as its docs ask a decompressing hook to.
      declaredLength.on = true
      return await replay(c.request)
    },
  },
  {
    id: 'has-catch-all-parser',
    readme: '`hasContentTypeParser(\'*\')` is true where a catch-all `*` parser is visible',
    rewrite(f, { c }) {
      const body = f.body as { tag?: unknown; has?: Record<string, unknown> } | null
      if (c.family !== 'content-types' || body === null || typeof body !== 'object' || body.has?.['*'] !== false || typeof body.tag !== 'string' || !catchAllVisible(c, body.tag)) return undefined
      const rewritten = { ...body, has: { ...body.has, '*': true } }
      const headers = { ...f.headers }
      if (headers['content-length'] !== undefined) headers['content-length'] = String(Buffer.byteLength(JSON.stringify(rewritten)))
      return { ...f, headers, body: rewritten }
    },
  },
]
