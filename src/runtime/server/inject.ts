import type { IncomingMessage, ServerResponse } from 'node:http'
import type lightMyRequest from 'light-my-request'
import { handleRequest } from '../serve/pipeline'
import type { ServeContext } from '../serve/serve-context'
import type { InjectChain, InjectOptions, InjectResponse } from '../types'

/** Fastify's chained form (`inject().get('/x').end()`): the request waits for the boot. */
export function injectChain(serve: ServeContext, ready: () => Promise<void>): InjectChain {
  const afterBoot = (req: IncomingMessage, res: ServerResponse): void => {
    ready().then(() => {
      // As injectOnce(): the request keeps the handlerTimeout sweep alive until its answer.
      const release = serve.deadlines.holdOpen()
      res.once('finish', release)
      res.once('close', release)
      handleRequest(serve, req, res)
    }, (error: unknown) => { res.emit('error', error) })
  }
  return loadLightMyRequest()(afterBoot) as unknown as InjectChain
}

/** One in-process request through the full pipeline, once booted. */
export async function injectOnce(serve: ServeContext, ready: () => Promise<void>, options: InjectOptions | string): Promise<InjectResponse> {
  await ready()
  const dispatch = (req: IncomingMessage, res: ServerResponse): void => handleRequest(serve, req, res)
  const request = typeof options === 'string' ? { url: options, method: 'GET' } : options
  // Without a socket nothing else may keep the process alive until handlerTimeout answers.
  const release = serve.deadlines.holdOpen()
  try {
    const response = await loadLightMyRequest()(dispatch, request as never)
    return response as unknown as InjectResponse
  } finally {
    release()
  }
}

/**
 * light-my-request is loaded by the first inject(), not with Enclave: a server that only
 * listens never needs it, and loading it costs about 15 ms of CPU at process start (issue 16).
 */
function loadLightMyRequest(): typeof lightMyRequest {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('light-my-request') as typeof lightMyRequest
}
