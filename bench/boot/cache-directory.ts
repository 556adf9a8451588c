/**
 * The schema cache directory of a `-cached` boot contender: the harness passes it as the worker's
 * fourth argument, fills it with one unmeasured run (a previous process, as in a deployment that
 * ships the directory), and removes it when the boot benchmark ends.
 */
export function bootCacheDirectory(): string {
  const directory = process.argv[4]
  if (directory === undefined || directory === '') throw new Error('a -cached boot worker needs the cache directory as its fourth argument')
  return directory
}

/** Contenders that read a schema cache filled by a previous process. */
export function isCachedContender(name: string): boolean {
  return name.endsWith('-cached')
}
