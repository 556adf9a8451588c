// The JSON a run-file child writes, read by the mocha suite and the report script.
export type TestStatus = 'pass' | 'fail' | 'skip'

export interface TestResult {
  name: string
  status: TestStatus
  /** Failed assertions, timeouts and uncaught errors, each prefixed with the subtest path. */
  failures: string[]
}

export interface FileResult {
  file: string
  /** Set when the file itself could not be loaded (its tests then do not run). */
  loadError: string | null
  tests: TestResult[]
}
