import { backtracksBadly } from '../schemas/regex-backtracking'
import { regexParamsOf, segmentRegexesOf } from '../serve/regex-param-bound'
import type { BootWarning } from './boot-warnings'
import { MAX_ROUTABLE_HOST } from '../serve/router'

/**
 * A route's regex parameters (`/:id(^\d+$)`) that can backtrack super-linearly, judged by the
 * checker of schema patterns (regex-backtracking.ts). find-my-way refuses nested quantifiers
 * (`^(a+)+$`, safe-regex2) but not overlapping alternatives under one (`^(a|aa)+$`: every `a`
 * more costs 1.6 times as much; 28 characters took 52 ms, 40 would take seconds) nor polynomial
 * shapes (`^\w+\w+\w+\w+\w+x$`: 1 s on 100 characters). The router runs such a regex on any URL's
 * segment up to its length bound (regex-param-bound.ts), before any hook or validation: no option
 * can bound it further, so only rewriting the regex silences the warning. Several parameters of
 * one segment are one regex to the router (`:a(^\w+):b(^\w+)` is `^(\w+)(\w+)$`): that joined
 * regex is judged too, and named by the segment's parameters, when none of them is bad alone.
 */
export function routeRegexWarnings(route: string, scopePath: string, path: string): BootWarning[] {
  const at = regexParamsOf(path).filter(({ source }) => compiles(source) && backtracksBadly(source)).map(({ param }) => param)
  for (const { params, source } of segmentRegexesOf(path)) {
    if (!at.some((param) => params.includes(param)) && compiles(source) && backtracksBadly(asJudged(source))) at.push(params)
  }
  if (at.length === 0) return []
  return [{
    code: 'ENC_WARN_ROUTE_REGEX_REDOS',
    fields: { route, scope: scopePath, at },
    message: redosMessage(route, `the regex parameter ${at.join(', ')}`, ', within one parameter or across the parameters of one segment, which the router joins into one regex',
      'the router runs it on every URL segment that reaches it, up to maxParamLength characters per parameter, before any hook, so a crafted URL costs seconds of CPU (^(a|aa)+$ on 40 characters)',
      '^a+$ instead of ^(a|aa)+$, ^\\d+(\\.\\d+)?$ instead of ^\\d+\\.?\\d*$',
      'put a character neither side takes between two parameters of a segment (:a(^\\d+)-:b(^\\d+)), or take the segment as a plain :param and check it with a params schema (maxLength with pattern)'),
  }]
}

/**
 * find-my-way writes a plain parameter after static text as `(?:(?!X).)*` (any character up to
 * the text X); the backtracking checker reads that as `.*`, which overlaps everything, so a linear
 * `/y/:p.:q-:r(^[a-z]+$)` was flagged. When X is one character the group matches what `[^X]*`
 * matches (but line terminators, which changes nothing about backtracking), so it is judged as
 * that; a longer X stays as written.
 */
function asJudged(source: string): string {
  return source.replace(/\(\?:\(\?!(\\.|[^\\()|[\]])\)\.\)\*/g, '[^$1]*')
}

/**
 * The one wording of both warnings (which regex, what else makes it bad, where the router runs it,
 * the rewrite examples, the other ways out), so the two cannot drift apart.
 */
function redosMessage(route: string, subject: string, alsoBad: string, exposure: string, examples: string, otherwise: string): string {
  return `route ${route}: ${subject} can backtrack super-linearly (overlapping alternatives under a quantifier, or unbounded quantifiers over the same characters meeting${alsoBad}): ${exposure}. Rewrite it so that each character can be matched one way only (${examples}), ${otherwise}.`
}

function compiles(source: string): boolean {
  try { new RegExp(source); return true } catch { return false }
}

const noWarnings: readonly BootWarning[] = []

/**
 * A RegExp host constraint (`constraints: { host: /^(\w+\.)+example\.com$/ }`), judged as a regex
 * parameter is: find-my-way tests it on every request's Host that names no exact host of the route,
 * before any hook, and the Host is the client's to write. Only values up to MAX_ROUTABLE_HOST characters
 * reach it (router.ts), but that is plenty for a bad one: `/^(a|aa)+\.com$/` took 18 ms on
 * 28 characters and doubles with about every two more; `/^\w+\w+\w+\w+\.com$/` took 0.15 s on 140.
 * Results are cached per Host value (1,000 of them), which a client defeats by sending a new one
 * each time.
 */
export function hostConstraintWarnings(methods: readonly string[], url: string, scopePath: string, host: unknown): readonly BootWarning[] {
  if (!(host instanceof RegExp) || !backtracksBadly(host.source)) return noWarnings
  // Named here, not by the caller: compile calls this for every route and most have no host regex.
  const route = `${methods.join(',')} ${url}`
  const at = [`constraints.host ${String(host)}`]
  return [{
    code: 'ENC_WARN_ROUTE_REGEX_REDOS',
    fields: { route, scope: scopePath, at },
    message: redosMessage(route, `the host constraint ${String(host)}`, '',
      `the router tests it on the Host header of every request that reaches the route's path, up to ${MAX_ROUTABLE_HOST} characters, before any hook, so a crafted Host costs seconds of CPU`,
      '/^[a-z0-9-]+\\.example\\.com$/ instead of /^(\\w+\\.?)+example\\.com$/',
      'or list the hosts as strings (one route each)'),
  }]
}
