/**
 * One readiness check: resolves (with anything but `false`) when the dependency is usable;
 * returns `false`, throws or rejects when it is not. Runs on every readiness request, so keep
 * it cheap (a ping, not a query plan).
 */
export type HealthCheck = () => unknown

export interface HealthOptions {
  /** Default `/health/ready`: 200 when every check passes, 503 otherwise and while closing. */
  readinessPath?: string
  /** Default `/health/live`: 200 while the process serves requests; runs no check. */
  livenessPath?: string
  /** Named checks, run in parallel on each readiness request. */
  checks?: Readonly<Record<string, HealthCheck>>
  /** A check that has not settled after this many ms counts as down. Default 2000. */
  checkTimeout?: number
}

export type CheckStatus = 'up' | 'down'

/** The body of both health routes (docs/operations.md, "Health"). */
export interface HealthReport {
  status: 'ok' | 'down' | 'closing'
  checks: Record<string, { status: CheckStatus; message?: string }>
  /** Present on 503 only: the error shape every Enclave error reply has. */
  statusCode?: 503
  code?: 'ENC_ERR_HEALTH_NOT_READY' | 'ENC_ERR_HEALTH_CLOSING'
  error?: 'Service Unavailable'
  message?: string
}

/** A provider (or module) instance that contributes a readiness check under its class name. */
export interface HealthContributor {
  checkHealth(): unknown
}
