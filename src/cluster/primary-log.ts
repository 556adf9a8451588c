import { hostname } from 'node:os'

export type PrimaryLogLevel = 'info' | 'warn' | 'error'
export type PrimaryLog = (level: PrimaryLogLevel, msg: string) => void

/** pino's numbers, so a level filter on the workers' lines reads the primary's the same way. */
const levels: Record<PrimaryLogLevel, number> = { info: 30, warn: 40, error: 50 }

/**
 * One line of the cluster primary, in the shape of the workers' pino lines (level, time, pid,
 * hostname, msg) plus `name: "enclave-cluster"`. The primary shares stdout with workers that log
 * JSON (`logger: true`), so a plain-text line there breaks a collector that parses every line.
 */
export function primaryLogLine(level: PrimaryLogLevel, msg: string, time = Date.now()): string {
  return JSON.stringify({ level: levels[level], time, pid: process.pid, hostname: hostname(), name: 'enclave-cluster', msg })
}
