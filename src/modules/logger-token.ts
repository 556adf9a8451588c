import type { ServerLogger } from '../runtime'

/**
 * The app's logger, as an injection token: `constructor(private readonly log: Logger)` in a
 * provider, controller or module receives the app logger's child for the module that
 * constructs it (`{ module: 'AppModule > BooksModule' }` on every line), so a service logs
 * with the same settings, destination and redaction as the requests, and says where it sits.
 * A class so that emitted constructor metadata names it: no `@inject()` needed. Its value is
 * always the registered logger; the class itself is never constructed.
 * Typed as the server's logger (child, trace and fatal required): what it injects is a child of
 * the server's, which always has them, so `this.log.child({ jobId })` needs no `!` or `?.`. A
 * Logger a module provides, or a test's override, is used as given (a test compares it by identity):
 * like any stub, one without `child` fails where code calls `child`.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Logger extends ServerLogger {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Logger {}

/** The logger a module's container provides: a child of the app's, bound to the module path. */
export function moduleLogger(appLog: ServerLogger, path: string): ServerLogger {
  return appLog.child({ module: path })
}
