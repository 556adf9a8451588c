import { runtimeErrorCodes } from './runtime-codes'
import { schemaErrorCodes } from '../schemas/schema-codes'

export interface ErrorCodeInfo {
  /** The HTTP status it answers with; null for a boot error; 'none' for a request-time code that sends nothing (logged, or a signal's reason). */
  readonly status: number | null | 'none'
  readonly summary: string
}

/** Every code the runtime can raise; the table in docs/errors.md is checked against this list. */
export const allErrorCodes: Readonly<Record<string, ErrorCodeInfo>> = { ...runtimeErrorCodes, ...schemaErrorCodes }
