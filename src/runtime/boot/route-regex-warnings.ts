import { backtracksBadly } from '../schemas/regex-backtracking'
import { regexParamsOf } from '../serve/regex-param-bound'
import type { BootWarning } from './boot-warnings'

/**
 * A route's regex parameters (`/:id(^\d+$)`) that can backtrack super-linearly, judged by the
 * checker of schema patterns (regex-backtracking.ts). find-my-way refuses nested quantifiers
 * (`^(a+)+$`, safe-regex2) but not overlapping alternatives under one (`^(a|aa)+$`: every `a`
 * more costs 1.6 times as much; 28 characters took 52 ms, 40 would take seconds) nor polynomial
 * shapes (`^\w+\w+\w+\w+\w+x$`: 1 s on 100 characters). The router runs such a regex on any URL's
 * segment up to its length bound (regex-param-bound.ts), before any hook or validation: no option
 * can bound it further, so only rewriting the regex silences the warning.
 */
export function routeRegexWarnings(route: string, scopePath: string, path: string): BootWarning[] {
  const at = regexParamsOf(path).filter(({ source }) => compiles(source) && backtracksBadly(source)).map(({ param }) => param)
  if (at.length === 0) return []
  return [{
    code: 'ENC_WARN_ROUTE_REGEX_REDOS',
    fields: { route, scope: scopePath, at },
    message: `route ${route}: the regex parameter ${at.join(', ')} can backtrack super-linearly (overlapping alternatives under a quantifier, or unbounded quantifiers over the same characters meeting): the router runs it on every URL segment that reaches it, up to maxParamLength characters per parameter, before any hook, so a crafted URL costs seconds of CPU (^(a|aa)+$ on 40 characters). Rewrite it so that each character can be matched one way only (^a+$ instead of ^(a|aa)+$, ^\\d+(\\.\\d+)?$ instead of ^\\d+\\.?\\d*$), or take the segment as a plain :param and check it with a params schema (maxLength with pattern).`,
  }]
}

function compiles(source: string): boolean {
  try { new RegExp(source); return true } catch { return false }
}
