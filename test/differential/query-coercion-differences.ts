// README differences the `query-coercion` family meets (query-coercion.ts).
import type { KnownDifference } from './difference-types'

// Query values ajv 6 coerces to a non-finite number (`+'Infinity'`, `+'1e999'`).
const NON_FINITE = /=(?:[+-]?Infinity|[+-]?\d+(?:\.\d+)?e\d{3,})(?=&|$)/gi

export const QUERY_COERCION_DIFFERENCES: KnownDifference[] = [
  {
    id: 'query-non-finite-not-coerced',
    readme: 'strings that would coerce to\n  `Infinity` (`"Infinity"` or `"1e999"` in a body at any depth, or in the query, params or headers)\n  are not coerced: they fail `number` and `integer` schemas with a 400 as `"abc"` does',
    async rewrite(_f, { c, replay }) {
      if (c.family !== 'query-coercion' || c.request.url.replace(NON_FINITE, '=abc') === c.request.url) return undefined
      // The same query with each such value written `abc`, which no number schema takes either.
      return await replay({ ...c.request, url: c.request.url.replace(NON_FINITE, '=abc') })
    },
  },
]
