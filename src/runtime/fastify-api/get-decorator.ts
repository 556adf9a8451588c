import { assertDeclared, readDecorator } from '../shared/read-decorator'

export function requestGetDecorator(this: object, name: string | symbol): unknown { return readDecorator(this, 'request', name) }
export function replyGetDecorator(this: object, name: string | symbol): unknown { return readDecorator(this, 'reply', name) }

/** Fastify 5's request.setDecorator(): writes a declared request decoration (a typo throws instead of adding a property). */
export function requestSetDecorator(this: object, name: string | symbol, value: unknown): void {
  assertDeclared(this, 'request', name, 'setDecorator')
  ;(this as Record<string | symbol, unknown>)[name] = value
}
