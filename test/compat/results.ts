// What a run-file child reports (over IPC) and the suite and report script read.
export type TestStatus = 'pass' | 'fail' | 'skip'

export interface TestResult {
  name: string
  status: TestStatus
  /** Failed assertions, timeouts and uncaught errors, each prefixed with the subtest path. */
  failures: string[]
  /** Errors Enclave logged while the test ran (diagnostics for the catalogue, never a verdict). */
  logged: string[]
}

export interface FileResult {
  file: string
  /** Set when the file itself could not be loaded (its tests then do not run). */
  loadError: string | null
  tests: TestResult[]
}

/** The lines a run-file child appends to its journal, read by its parent. */
export type ChildMessage =
  | { kind: 'loaded'; names: string[]; loadError: string | null }
  | { kind: 'start'; index: number; name: string }
  | { kind: 'result'; index: number; result: TestResult }
  | { kind: 'end' }
  | { kind: 'beat' }
