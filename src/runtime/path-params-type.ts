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

// `(regex)` groups dropped first: they may hold colons. Nested groups are rare in routes; a path
// with one reads the names before it.
type StripGroups<P extends string> = P extends `${infer A}(${infer Rest}` ? `${A}${StripGroups<AfterGroup<Rest>>}` : P
type AfterGroup<P extends string> = P extends `${string})${infer B}` ? B : ''

type Names<P extends string> = P extends `${infer Before}:${infer After}`
  ? (After extends `:${infer Escaped}` ? Wildcard<Before> | Names<Escaped> : Wildcard<Before> | NameAt<After> | Names<After>)
  : Wildcard<P>
type Wildcard<P extends string> = P extends `${string}*${string}` ? '*' : never
// The name runs to the first `/`, `-` or `.`; a trailing `?` is the optional mark, not the name.
type NameAt<P extends string> = Unmarked<CutAt<CutAt<CutAt<P, '/'>, '-'>, '.'>>
type CutAt<P extends string, D extends string> = P extends `${infer A}${D}${string}` ? A : P
type Unmarked<N extends string> = N extends `${infer M}?` ? M : N
