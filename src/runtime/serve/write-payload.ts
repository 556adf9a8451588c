import { runtimeError, runtimeErrors } from '../errors/runtime-codes'
import { endDeadline } from './handler-timeout'
import type { ReplyImpl } from './reply'
import { commit } from './reply-state'
import { failWrite } from './send-failure'
import { writeStream } from './stream-reply'
import { closeSource, isStream } from './stream-source'
import { cancelWebPayload, nodeBody } from './web-reply'
import { writeHeadOrFail } from './write-head'

/** A second answer after the reply was written: logged at warn and ignored, as Fastify 3 does. */
export function warnAlreadySent(reply: ReplyImpl, returnedAt?: string): void {
  reply.request.log.warn(reply.route.serve.idFields(reply.request.id, { code: 'ENC_ERR_REPLY_ALREADY_SENT' }), runtimeErrors.ENC_ERR_REPLY_ALREADY_SENT.message({ returnedAt }))
}

/** The last step of reply.send(): the payload the onSend hooks gave goes to the response, with its length. */
export function write(reply: ReplyImpl, payload: unknown): void {
  const res = reply.raw
  // A payload that arrives after the handler timeout wrote its 503 past the hooks is dropped.
  if (!commit(reply)) { discard(payload); return }
  endDeadline(reply)
  // The handler answered on reply.raw itself (`reply.raw.end(...)`) and then sent: as Fastify 3, a
  // second answer, logged at warn and ignored (Node would refuse the head: an error line over HTTP,
  // and none under inject, where the ended response also reads as destroyed).
  if (res.writableEnded) { warnAlreadySent(reply); discard(payload); return }
  // The client is gone: nothing to write, but a stream payload (a file, say) must still be closed.
  if (res.destroyed) { discard(payload); return }
  // A Response or web stream (sent, or returned by an onSend hook) becomes its Node form here.
  if (typeof payload === 'object' && payload !== null && !Buffer.isBuffer(payload) && !isStream(payload)) {
    try {
      payload = nodeBody(reply, payload)
    } catch (error) {
      discard(payload)
      failWrite(reply, error)
      return
    }
  }
  const headers = reply.headerMap
  if (payload === undefined || payload === null) {
    // A declared HEAD route announces no length unless its handler does (the length a GET would
    // send), as in Fastify 3: its empty payload says nothing about the GET body. A GET route
    // answering HEAD by itself announces the GET body's, 0, over a length its handler set, as the
    // GET does and Fastify 3's exposeHeadRoutes (headRouteOnSendHandler) sets it.
    const head = reply.request.method === 'HEAD'
    const announce = !head || reply.route.implicitHead
    if (reply.statusCode !== 204 && reply.statusCode !== 304 && announce) headers['content-length'] = '0'
    if (writeHeadOrFail(reply)) res.end()
    return
  }
  // A 204 or 304 has no body (RFC 9110 §15.3.5, §15.4.5): a payload given with one is dropped,
  // and no length is announced for it (nor a type, for a 204), as Fastify 5 does.
  if (reply.statusCode === 204 || reply.statusCode === 304) {
    delete headers['content-length']
    if (reply.statusCode === 204) delete headers['content-type']
    discard(payload)
    if (writeHeadOrFail(reply)) res.end()
    return
  }
  // A 205 has no content either (RFC 9110 §15.3.6: a server MUST NOT generate any): the payload is
  // dropped and a zero length announced, as the RFC suggests. Sent, it is read as the next
  // response by an HTTP/1 keep-alive client that knows the rule, and over HTTP/2 the client's
  // nghttp2 resets the stream (PROTOCOL_ERROR: no answer at all).
  if (reply.statusCode === 205) {
    headers['content-length'] = '0'
    discard(payload)
    if (writeHeadOrFail(reply)) res.end()
    return
  }
  // A HEAD handler's own Content-Length (the GET body's) is kept over its payload's, as in Fastify 3.
  // Not on the HEAD a GET route answers by itself: its payload is the GET body, whose length the GET
  // announces (a handler's wrong one corrected), as Fastify 3's exposeHeadRoutes sets it.
  const keepLength = reply.request.method === 'HEAD' && !reply.route.implicitHead && headers['content-length'] !== undefined && headers['content-length'] !== ''
  if (typeof payload === 'string') {
    if (!keepLength) headers['content-length'] = String(Buffer.byteLength(payload))
  } else if (Buffer.isBuffer(payload)) {
    if (!keepLength) headers['content-length'] = String(payload.length)
  } else if (typeof payload === 'object' && isStream(payload)) {
    writeStream(reply, payload)
    return
  } else {
    failWrite(reply, runtimeError('ENC_ERR_REPLY_SERIALIZATION', {}))
    return
  }
  // A HEAD reply carries the GET reply's headers and no body. Node's own socket drops the body, but
  // inject() (light-my-request) would hand it to the caller: end without it in every case.
  if (writeHeadOrFail(reply)) res.end(reply.request.method === 'HEAD' ? undefined : payload)
}

export function discard(payload: unknown): void {
  if (typeof payload !== 'object' || payload === null) return
  if (isStream(payload)) closeSource(payload); else cancelWebPayload(payload)
}
