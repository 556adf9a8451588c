import type { HealthCheck } from '../plugins/health-types'

/**
 * Readiness checks contributed by the app's own instances: any provider (or module) with a
 * `checkHealth()` method, named after its class. A second instance of the same class (two
 * modules each providing it) is named `Class#2`, so no check is silently dropped.
 */
export function healthChecksOf(instances: readonly object[]): Record<string, HealthCheck> {
  const checks: Record<string, HealthCheck> = {}
  for (const instance of instances) {
    const method = (instance as { checkHealth?: unknown }).checkHealth
    if (typeof method !== 'function') continue
    const base = instance.constructor?.name || 'provider'
    let name = base
    for (let n = 2; name in checks; n++) name = `${base}#${n}`
    checks[name] = () => method.call(instance)
  }
  return checks
}
