import { runtimeErrorCodes } from './runtime-codes'
import { schemaErrorCodes } from '../schemas/schema-codes'

export interface ErrorCodeInfo {
  readonly status: number | null
  readonly summary: string
}

/** Every code the runtime can raise; the README's table is checked against this list. */
export const allErrorCodes: Readonly<Record<string, ErrorCodeInfo>> = { ...runtimeErrorCodes, ...schemaErrorCodes }
