import { allErrorCodes } from './runtime'
import { decoratorErrorCodes } from './decorators'
import { moduleErrorCodes } from './modules'
import { pluginErrorCodes } from './plugins'
import { clusterErrorCodes } from './cluster'
import { contractErrorCodes } from './contract/contract-codes'

export interface ErrorCodeEntry {
  readonly code: string
  /** The HTTP status of errors that answer a request; null for boot and declaration errors; 'none' for request-time codes that send nothing. */
  readonly status: number | null | 'none'
  readonly summary: string
}

/** Every error code Enclave can raise, from every layer: the table in docs/errors.md is checked against it. */
export const errorCodeTable: readonly ErrorCodeEntry[] = Object.entries({
  ...allErrorCodes, ...decoratorErrorCodes, ...moduleErrorCodes, ...pluginErrorCodes, ...clusterErrorCodes, ...contractErrorCodes,
} as Record<string, { status: number | null | 'none'; summary: string }>).map(([code, info]) => ({ code, status: info.status, summary: info.summary }))
