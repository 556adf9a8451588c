// Per-test time limits, shared by the child runner and the parent's watchdog.

/** tap's default is 30 s; a Fastify test that passes takes milliseconds, one that waits for an assertion that never comes takes this long. */
export const defaultTestTimeoutMs = 2000
/** A test's own `{ timeout }` option is honoured up to this. */
export const maxTestTimeoutMs = 3000
/** A file is over when all its tests have run and no new one was declared for this long. */
export const quietMs = 150
/** The child appends a heartbeat this often while its event loop turns. */
export const heartbeatMs = 250
/** The parent kills a child whose journal has not grown for this long: a test is starving its event loop. */
export const silenceLimitMs = 8000
/** The same before the file has finished loading (its first test runs inside the require). */
export const loadLimitMs = 60000
