import type { AddressInfo } from 'node:net'
import type { IncomingMessage, ServerResponse } from 'node:http'
import lightMyRequest from 'light-my-request'
import { FrameworkError } from './errors/framework-error'
import { bootServer, allScopes, callLifecycleHook } from './boot'
import { handleRequest } from './pipeline'
import type { ServerContext } from './server-context'
import type { InjectOptions, InjectResponse, ListenOptions } from './types'

/** Spec §9: `listen(port, host?)` (the release line) and `listen({ port, host })` (the development line). */
export async function listenServer(context: ServerContext, portOrOptions?: number | ListenOptions, hostArg?: string): Promise<string> {
  const options: ListenOptions = typeof portOrOptions === 'object' && portOrOptions !== null ? portOrOptions : { port: portOrOptions, host: hostArg }
  await bootServer(context)
  const server = context.server
  if (server.listening) throw new FrameworkError('ENC_ERR_SERVER_LISTENING', `listen() in ${context.rootScope.path}: the server is already listening. Call close() first.`)
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => { server.removeListener('listening', onListening); reject(error) }
    const onListening = (): void => { server.removeListener('error', onError); resolve() }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen(options.port ?? 0, host)
  })
  const address = server.address() as AddressInfo
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address
  context.log.info({ address: `http://${shown}:${address.port}` }, 'server listening')
  return `http://${shown}:${address.port}`
}

/**
 * Stops accepting at once, closes idle keep-alive sockets and connections that have not sent a
 * byte, lets in-flight requests finish, and force-closes what is still open after `closeTimeout`. Then runs onClose hooks, deepest
 * scopes first (a plugin closes before what it depends on).
 */
export function closeServer(context: ServerContext): Promise<void> {
  if (context.closePromise === null) context.closePromise = close(context)
  return context.closePromise
}

async function close(context: ServerContext): Promise<void> {
  const server = context.server
  context.closing = true
  if (server.listening) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => server.closeAllConnections(), context.limits.closeTimeout)
      timer.unref()
      server.close(() => { clearTimeout(timer); resolve() })
      server.closeIdleConnections()
      // Connected but silent: no request to finish, so nothing to wait for. Node counts these
      // as busy (its parser is waiting for a first request), so closeIdleConnections() keeps
      // them and close() would wait for closeTimeout or headersTimeout. A connection that has
      // sent part of a request is left to finish it (or to time out).
      for (const socket of context.sockets) if (socket.bytesRead === 0) socket.destroy()
    })
  }
  if (context.readyPromise === null) return
  await context.readyPromise.catch(() => undefined)
  for (const scope of allScopes(context.rootScope).reverse()) {
    for (const hook of scope.hooks.own('onClose')) {
      await callLifecycleHook(hook.fn, hook.scope, [hook.scope], hook.callback, context.limits.pluginTimeout, `onClose hook in ${scope.path}`)
        .catch((error: unknown) => context.log.error({ err: error }, `onClose hook in ${scope.path} failed`))
    }
  }
}

/** An in-process request: the full pipeline, no socket. Boots the server first. */
export async function injectRequest(context: ServerContext, options: InjectOptions | string): Promise<InjectResponse> {
  await bootServer(context)
  const dispatch = (req: IncomingMessage, res: ServerResponse): void => handleRequest(context, req, res)
  const request = typeof options === 'string' ? { url: options, method: 'GET' } : options
  const response = await lightMyRequest(dispatch, request as never)
  return response as unknown as InjectResponse
}
