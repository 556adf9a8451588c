import { FrameworkError } from './framework-error'

/**
 * One error, declared once: its code's HTTP status, the summary docs/errors.md's table shows, and the
 * message template. Throw sites pass only the template's arguments (`raise(code, args)`), so a
 * message is written in one place and every error of a code reads alike.
 */
export interface ErrorDefinition<A> {
  /** The HTTP status it answers with; null for a boot or declaration error; 'none' for a request-time code that sends nothing. */
  readonly status: number | null | 'none'
  /** The `statusCode` the Error carries when that differs from `status` (a 'none' code read by error handlers and logs). */
  readonly statusCode?: number
  readonly summary: string
  readonly message: (args: A) => string
}

export type ErrorStatus = number | null | 'none'

/** Declares one table entry; `A` is inferred from the template's parameter, `S` keeps the status literal. */
export function defineError<A = void, S extends ErrorStatus = ErrorStatus>(definition: ErrorDefinition<A> & { readonly status: S }): ErrorDefinition<A> & { readonly status: S } {
  return definition
}

export type ErrorTable = Record<string, ErrorDefinition<any>>
type ArgsOf<D> = D extends ErrorDefinition<infer A> ? A : never
export interface RaiseOptions { readonly cause?: unknown }
/** The code's arguments; codes whose template takes none are raised with the code alone. */
export type RaiseArgs<D> = [ArgsOf<D>] extends [void] ? [args?: void, options?: RaiseOptions] : [args: ArgsOf<D>, options?: RaiseOptions]

/** The status and summary of every code of a table: what the table in docs/errors.md and errorCodeTable show. */
export function codeSummaries<T extends ErrorTable>(table: T): { readonly [C in keyof T]: { readonly status: T[C]['status']; readonly summary: string } } {
  const out: Record<string, { status: ErrorStatus; summary: string }> = {}
  for (const [code, { status, summary }] of Object.entries(table)) out[code] = { status, summary }
  return out as { [C in keyof T]: { status: T[C]['status']; summary: string } }
}

/** The error carried by a code: its message from the template, its statusCode from the table. */
export function errorFactory<T extends ErrorTable>(table: T): <C extends keyof T & string>(code: C, ...rest: RaiseArgs<T[C]>) => FrameworkError {
  return (code, ...rest) => {
    const definition = table[code]
    const [args, options] = rest as [unknown, RaiseOptions | undefined]
    const statusCode = definition.statusCode ?? (typeof definition.status === 'number' ? definition.status : undefined)
    return new FrameworkError(code, definition.message(args), {
      ...(statusCode === undefined ? {} : { statusCode }),
      ...(options?.cause === undefined ? {} : { cause: options.cause }),
    })
  }
}
