// Per-test time limits, shared by the child runner and the parent's watchdog.

/** tap's default is 30 s; a Fastify test that passes takes milliseconds, one that waits for an assertion that never comes takes this long. */
export const defaultTestTimeoutMs = 1000
/** A test's own `{ timeout }` option is honoured up to this. */
export const maxTestTimeoutMs = 3000
/** A file is over when all its tests have run and no new one was declared for this long. */
export const quietMs = 150
