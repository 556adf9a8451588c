import { unknownOptions } from '../runtime/internal'
import type { PluginFunction, Reply, Request, Scope } from '../runtime'
import { pluginErrors, pluginError } from './plugin-codes'
import type { CheckStatus, HealthCheck, HealthOptions, HealthReport } from './health-types'

const defaults = { readinessPath: '/health/ready', livenessPath: '/health/live', checkTimeout: 2000 }

/**
 * Liveness and readiness routes for load balancers and orchestrators (docs/operations.md, "Health").
 * Liveness answers 200 while the process serves and runs no check: a database outage must make
 * the instance unready, not get it restarted. Readiness runs every check in parallel, each
 * bounded by `checkTimeout`, and answers 503 when one fails, and always once close() has begun,
 * so a balancer stops sending new work while in-flight requests finish.
 * A failing check's error is logged, never sent: health routes are often reachable from outside.
 *
 * @example
 * app.register(health({ checks: { db: () => pool.query('select 1') } }))
 */
export function health(options: HealthOptions = {}): PluginFunction {
  const settings = checkedOptions(options)
  const checks = Object.entries(settings.checks)
  const live: HealthReport = { status: 'ok', checks: {} }
  const plugin = async function health(scope: Scope) {
    // Every answer, a 200 too: a cache between the balancer and the instance that kept a 200
    // would hide the 503 that takes a draining or broken instance out.
    scope.addHook('onRequest', async (_request: Request, reply: Reply) => { reply.header('cache-control', 'no-store') })
    scope.get(settings.livenessPath, { schema: { response: { 200: healthyReport } } }, () => live)
    scope.get(settings.readinessPath, { schema: { response: { 200: healthyReport, 503: unavailableReport } } }, async (request: Request, reply: Reply) => {
      if (scope.closing) return unavailable(reply, { status: 'closing', checks: {} }, 'ENC_ERR_HEALTH_CLOSING', pluginErrors.ENC_ERR_HEALTH_CLOSING.message())
      const results = await Promise.all(checks.map(([name, check]) => run(name, check, settings.checkTimeout, request)))
      const report: HealthReport = { status: 'ok', checks: {} }
      const down: string[] = []
      for (const [name, status, message] of results) {
        // Defined, not assigned: a check named `__proto__` (from a parsed config) would set the prototype and vanish from the report.
        Object.defineProperty(report.checks, name, { value: message === undefined ? { status } : { status, message }, enumerable: true, writable: true, configurable: true })
        if (status === 'down') down.push(name)
      }
      if (down.length === 0) return report
      report.status = 'down'
      return unavailable(reply, report, 'ENC_ERR_HEALTH_NOT_READY', pluginErrors.ENC_ERR_HEALTH_NOT_READY.message({ down }))
    })
  }
  return plugin
}

// Response schemas so openapi() documents both answers (the 503 is what a balancer acts on) and
// the serializer, not JSON.stringify, writes them.
const checkResults = {
  type: 'object',
  additionalProperties: {
    type: 'object', required: ['status'],
    properties: { status: { type: 'string', enum: ['up', 'down'] }, message: { type: 'string' } },
  },
}
const healthyReport = {
  type: 'object', required: ['status', 'checks'],
  properties: { status: { type: 'string', enum: ['ok'] }, checks: checkResults },
}
const unavailableReport = {
  type: 'object', required: ['statusCode', 'code', 'error', 'message', 'status', 'checks'],
  properties: {
    statusCode: { type: 'integer', enum: [503] },
    code: { type: 'string', enum: ['ENC_ERR_HEALTH_NOT_READY', 'ENC_ERR_HEALTH_CLOSING'] },
    error: { type: 'string' },
    message: { type: 'string' },
    status: { type: 'string', enum: ['down', 'closing'] },
    checks: checkResults,
  },
}

function unavailable(reply: Reply, report: HealthReport, code: NonNullable<HealthReport['code']>, message: string): HealthReport {
  reply.code(503)
  return { statusCode: 503, code, error: 'Service Unavailable', message, ...report }
}

async function run(name: string, check: HealthCheck, timeoutMs: number, request: Request): Promise<[string, CheckStatus, string?]> {
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), timeoutMs) })
  try {
    const result = await Promise.race([Promise.resolve().then(check), timedOut])
    if (result === 'timeout') {
      request.log.warn({ check: name, timeoutMs }, `health check ${name} did not settle within ${timeoutMs} ms`)
      return [name, 'down', `timed out after ${timeoutMs} ms`]
    }
    return result === false ? [name, 'down', 'check returned false'] : [name, 'up']
  } catch (error) {
    request.log.warn({ check: name, err: error }, `health check ${name} failed`)
    return [name, 'down', 'check failed']
  } finally {
    clearTimeout(timer)
  }
}

function checkedOptions(options: HealthOptions): Required<HealthOptions> {
  const known = ['readinessPath', 'livenessPath', 'checks', 'checkTimeout']
  const unknown = options !== null && typeof options === 'object' ? unknownOptions(options, known) : 'takes an options object'
  const settings = { ...defaults, checks: {}, ...options }
  const bad: string[] = unknown === null ? [] : [unknown]
  for (const key of ['readinessPath', 'livenessPath'] as const) {
    if (typeof settings[key] !== 'string' || !settings[key].startsWith('/')) bad.push(`${key} must be a path starting with /`)
  }
  if (settings.readinessPath === settings.livenessPath) bad.push('readinessPath and livenessPath must differ')
  if (!Number.isSafeInteger(settings.checkTimeout) || settings.checkTimeout < 1) bad.push('checkTimeout must be an integer >= 1 (ms)')
  if (settings.checks === null || typeof settings.checks !== 'object') bad.push('checks must be an object of named functions')
  else for (const [name, fn] of Object.entries(settings.checks)) if (typeof fn !== 'function') bad.push(`checks.${name} is not a function`)
  if (bad.length > 0) throw pluginError('ENC_ERR_HEALTH_INVALID_OPTIONS', { problems: bad })
  return settings
}
