import type { ServerResponse } from 'node:http'
import type { FrameworkError } from '../errors/framework-error'
import { runtimeError } from '../errors/runtime-codes'
import type { RequestImpl } from './request'

/**
 * `request.signal`: lets a handler stop work nobody will read. It aborts when the client goes
 * away before the reply is written (reason `ENC_ERR_REQUEST_ABORTED`), or when handlerTimeout
 * has answered 503 for the request (reason: that `ENC_ERR_HANDLER_TIMEOUT` error). It never
 * aborts once the reply is out.
 *
 * The controller is made on first access, not per request: an AbortController and a 'close'
 * listener cost about a microsecond, and most handlers never look at the signal.
 */
export function requestSignal(request: RequestImpl): AbortSignal {
  if (request.abortController === null) request.abortController = watchResponse(request.response)
  return request.abortController.signal
}

/** handlerTimeout answered for this request: whatever the handler still waits for can stop. */
export function abortRequest(request: RequestImpl, reason: Error): void {
  const controller = request.abortController ??= new AbortController()
  if (!controller.signal.aborted) controller.abort(reason)
}

function watchResponse(res: ServerResponse): AbortController {
  const controller = new AbortController()
  const onClose = (): void => {
    // An HTTP/2 stream reset by the client reads writableFinished true with writableEnded false (pipeline.ts watchEnd).
    if (!(res.writableFinished && res.writableEnded) && !controller.signal.aborted) controller.abort(clientGone())
  }
  // The client may be gone already when the handler first asks (after an await, say).
  if (res.destroyed) onClose()
  else res.once('close', onClose)
  return controller
}

function clientGone(): FrameworkError {
  return runtimeError('ENC_ERR_REQUEST_ABORTED')
}
