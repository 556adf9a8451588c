// Was: `export function audit(log: FastifyLoggerInstance, ...)`, handed `request.log` or `fastify.log`.
import type { Request, Scope, ServerLogger } from '../../../../src'

export function audit(log: ServerLogger, action: string, detail: Record<string, unknown>): void {
  log.child({ audit: true }).info({ action, ...detail }, 'audit')
}

export function fromRequest(request: Request): ServerLogger { return request.log }
export function fromScope(app: Scope): ServerLogger { return app.log }
