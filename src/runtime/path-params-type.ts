/*
 * Types only: a route path's parameters read from its literal (Elysia types `params` so; Fastify's
 * type providers do not), for a route without a params schema: `app.get('/users/:id', (request) =>
 * request.params.id)` reads a string. The rules are shared/path-params.ts's (find-my-way's) for the
 * paths people write: `:name` ends at `/`, `-`, `.` or `(`, a `(regex)` is skipped, `::` is an escaped
 * colon, a trailing `:name?` is optional, `*` is the wildcard (`params['*']`).
 *
 * Other names stay readable (`unknown`, as without a path literal): a registration prefix
 * (`register(plugin, { prefix: '/orgs/:org' })`) or a controller's adds parameters the route's own
 * literal cannot show.
 */

declare const kPath: unique symbol
/** The phantom a route shortcut adds to its schema type: the path literal, read by TypedParts' params default. Never present at run time. */
export interface PathMark<Path extends string> { readonly [kPath]?: Path }

/** `S` with the route's path literal attached, when it is a literal that may name a parameter; else `S` itself (nothing to read). */
// A template test, not the names: every route pays for this, only one with a `:` or `*` for the parse.
export type WithPath<S, Path extends string> = string extends Path ? S : Path extends `${string}${':' | '*'}${string}` ? S & PathMark<Path> : S

/** The parameter names a path declares, as a union (`'id' | 'slug'`); never for a path without any or a path that is no literal. */
export type PathParamNames<Path extends string> = string extends Path ? never : RequiredNames<Path> | OptionalNames<Path>

/**
 * The params a path literal declares: `PathParams<'/users/:id'>` is `{ id: string }` (an optional
 * `:id?` is `id?: string`), for a handler or a controller parameter declared apart from its route.
 */
export type PathParams<Path extends string> = { [K in RequiredNames<Path>]: string } & { [K in OptionalNames<Path>]?: string }

/** What `request.params` reads on a route without a params schema: the path's names typed, any other `unknown`. */
export type PathParamsDefault<S> = S extends PathMark<infer Path> ? ([Path] extends [string] ? PathParams<Path> & Record<string, unknown> : Record<string, unknown>) : Record<string, unknown>

/** True when `S` carries a path naming a parameter. */
export type HasPathParams<S> = S extends PathMark<infer Path> ? ([PathParamNames<Path>] extends [never] ? false : true) : false

// A trailing `:name?` (before the end or a last `/`) is optional; the others are required.
type RequiredNames<Path extends string> = Exclude<Names<StripGroups<Path>>, OptionalNames<Path>>
type OptionalNames<Path extends string> = LastSegment<WithoutTrailingSlash<StripGroups<Path>>> extends `:${infer N}?`
  ? (N extends `${string}${':' | '-' | '.'}${string}` ? never : N) : never
type WithoutTrailingSlash<P extends string> = P extends `${infer A}/` ? A : P
type LastSegment<P extends string> = P extends `${string}/${infer R}` ? LastSegment<R> : P

// `(regex)` groups dropped first: they may hold colons, `-`, `.` and groups of their own
// (`/:id(^(\\d+|new)$)`), so the group ends at the `)` that closes it, as shared/path-params.ts's
// skipGroup reads it: nested groups counted, a backslash escaping the next character.
// A group ends its parameter's name as a `-` would (`/:hour(^\\d{2}):minute` has two names).
type StripGroups<P extends string> = P extends `${infer A}(${infer Rest}` ? `${A}-${StripGroups<AfterGroup<Rest>>}` : P
// Character by character (tail-recursive), only over a path's regex groups; `Depth` counts the groups still open inside the first.
type AfterGroup<P extends string, Depth extends 0[] = []> =
  P extends `\\${infer _Escaped}${infer R}` ? AfterGroup<R, Depth>
  : P extends `(${infer R}` ? AfterGroup<R, [...Depth, 0]>
  : P extends `)${infer R}` ? (Depth extends [0, ...infer D extends 0[]] ? AfterGroup<R, D> : R)
  : P extends `${infer _Char}${infer R}` ? AfterGroup<R, Depth>
  : ''

// After a name the scan goes on past it (not past its first colon): a colon inside a name is part of
// it (`/:a:b` is the one name `a:b`, as find-my-way reads it).
type Names<P extends string> = P extends `${infer Before}:${infer After}`
  ? (After extends `:${infer Escaped}` ? Wildcard<Before> | Names<Escaped> : Wildcard<Before> | Unmarked<NameAt<After>> | Names<AfterName<After>>)
  : Wildcard<P>
type Wildcard<P extends string> = P extends `${string}*${string}` ? '*' : never
// The name runs to the first `/`, `-` or `.` (a regex group was made a `-` by StripGroups); a trailing `?` is the optional mark, not the name.
type NameAt<P extends string> = CutAt<CutAt<CutAt<P, '/'>, '-'>, '.'>
type AfterName<P extends string> = P extends `${NameAt<P>}${infer Rest}` ? Rest : ''
type CutAt<P extends string, D extends string> = P extends `${infer A}${D}${string}` ? A : P
type Unmarked<N extends string> = N extends `${infer M}?` ? M : N
