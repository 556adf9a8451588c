// README differences the `thrown-values` family meets (thrown-values.ts). Fastify 3 is asked again
// with the declaration written as Enclave reads it: a done(value) as the same value thrown, a value
// that is not an Error as the Error Enclave's error reply makes of it.
import { STATUS_CODES } from 'node:http'
import type { Answer } from './case'
import type { KnownDifference } from './difference-types'
import { falsyValue, thrownRoute, thrownValueOf, type ThrownShape } from './thrown-values'

/** Whether the error handler's description is of the value exactly as it was raised (README: "Error handlers still get the value as thrown"). */
function describedAsThrown(enclave: Answer, shape: ThrownShape): boolean {
  const handled = (enclave.body as { handled?: { type?: unknown; value?: unknown; isError?: unknown } } | null)?.handled
  const value = thrownValueOf(shape.value)
  return handled !== undefined && handled.isError === false && handled.type === typeof value && handled.value === value
}

/** The generic 500, with Fastify 3's other headers kept. */
function generic500(f: Answer): Answer {
  const body = { statusCode: 500, error: STATUS_CODES[500], message: STATUS_CODES[500] }
  return { statusCode: 500, headers: { ...f.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(JSON.stringify(body))) }, body }
}

export const THROWN_VALUES_DIFFERENCES: KnownDifference[] = [
  {
    id: 'thrown-values-onsend-fails-4xx',
    readme: 'The same holds for an onSend hook that fails on a 4xx\n  payload (Fastify 3 and 5 both sent its message under the 4xx): a 500, logged once',
    rewrite(f, { c }) {
      const shape = c.thrown
      // The hook set 418 itself, then failed with a value whose status is no 4xx/5xx of its own.
      const value = shape === undefined ? undefined : thrownValueOf(shape.value) as { statusCode?: unknown; status?: unknown } | undefined
      const ownStatus = value !== null && typeof value === 'object' && (Number(value.statusCode) >= 400 || Number(value.status) >= 400)
      // On an error handler's 5xx payload too (seed 4:193: its 502 failed again in the hook).
      if (shape?.stage !== 'onSend' || ownStatus || f.statusCode < 400 || f.statusCode > 599) return undefined
      return generic500(f)
    },
  },
  {
    id: 'thrown-values-pre-serialization-object',
    readme: 'A plain object or a string a\n  preSerialization hook raises is read as one raised anywhere else',
    rewrite(f, { c, enclave }) {
      const shape = c.thrown
      const value = shape === undefined ? undefined : thrownValueOf(shape.value)
      if (shape?.stage !== 'preSerialization') return undefined
      // A string an error handler sent on (seed 3:105, under the 500 of the first failure): the same text, typed as text.
      if (typeof value === 'string' && f.body === value && enclave.headers['content-type'] === 'text/plain; charset=utf-8') return { ...f, headers: { ...f.headers, 'content-type': 'text/plain; charset=utf-8' } }
      // An object without a 4xx status of its own (seeds 8:138, 12:7): sent as it is under the reply's status.
      const own = value !== null && typeof value === 'object' ? value as { statusCode?: unknown; status?: unknown } : undefined
      if (own === undefined || f.statusCode < 400 || f.statusCode > 499 || value instanceof Error || Number(own.statusCode) >= 400 || Number(own.status) >= 400) return undefined
      const text = JSON.stringify(value)
      return { ...f, headers: { ...f.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) }, body: JSON.parse(text) }
    },
  },
  {
    id: 'thrown-values-done-value-is-error',
    readme: 'The same holds for a hook\'s `done(value)` with a value that is not an Error (`done(\'denied\')`):\n  an error reply, where Fastify 3 sends the value as a 200 payload.',
    async rewrite(_f, { c, replay }) {
      const shape = c.thrown
      if (shape === undefined || shape.raise !== 'done' || shape.asError === true || falsyValue(shape.value) || thrownValueOf(shape.value) instanceof Error) return undefined
      // Enclave's done(value) is the value thrown: Fastify 3 asked with the hook throwing it.
      return await replay(c.request, thrownRoute({ ...shape, raise: 'throw' }))
    },
  },
  {
    id: 'thrown-values-non-error-reply',
    readme: 'one\n  without a 4xx status, or a thrown string, answers the generic 500 (or the 5xx the reply already has) instead of being sent',
    async rewrite(_f, { c, replay }) {
      const shape = c.thrown
      // Only where the value reaches the built-in reply as it was raised: no error handler, one that
      // fails itself, or a preSerialization hook that fails again on the error handler's payload.
      const reachesBuiltIn = ['none', 'throw-other'].includes(shape?.handler ?? '') || shape?.stage === 'preSerialization'
      if (shape === undefined || shape.asError === true || !reachesBuiltIn || thrownValueOf(shape.value) instanceof Error) return undefined
      const value = thrownValueOf(shape.value)
      if (value === null || value === undefined) return undefined
      return await replay(c.request, thrownRoute({ ...shape, raise: shape.raise === 'done' ? 'throw' : shape.raise, asError: true }))
    },
  },
  {
    id: 'thrown-values-null-undefined',
    readme: 'a thrown\n  `undefined`/`null` becomes Fastify 3\'s 500 "Undefined error has occurred" (`ENC_ERR_REPLY_UNDEFINED_ERROR`);\n  error handlers get that error in its place',
    async rewrite(_f, { c, replay }) {
      const shape = c.thrown
      const value = shape === undefined ? 0 : thrownValueOf(shape.value)
      if (shape === undefined || shape.asError === true || (value !== null && value !== undefined)) return undefined
      // Fastify 3 asked with Enclave's coded error raised in the value's place.
      return await replay(c.request, thrownRoute({ ...shape, raise: shape.raise === 'done' ? 'throw' : shape.raise, asError: true }))
    },
  },
  {
    id: 'thrown-values-falsy',
    readme: 'A thrown, rejected or `done()`-passed value that JavaScript reads as false but is not `null` or\n  `undefined` (`0`, `false`) is that value',
    async rewrite(_f, { c, enclave, replay }) {
      const shape = c.thrown
      if (shape === undefined || shape.asError === true || !falsyValue(shape.value)) return undefined
      // An error handler that describes what it got: it got the value itself (Fastify 3 never hands one over).
      if (shape.handler === 'describe') return describedAsThrown(enclave, shape) ? enclave : undefined
      // The handler answers 400 { caught: <type of what it got> }: the value's own type, not an Error's.
      if (shape.handler === 'code-send') return enclave.statusCode === 400 && (enclave.body as { caught?: unknown } | null)?.caught === typeof thrownValueOf(shape.value) ? enclave : undefined
      // Sent on from an error handler, the value is the payload (as Fastify 3 sends a truthy one): Fastify 3 is
      // asked with a string for the status it gives a sent-on value, and the body must be the value itself.
      if (shape.handler === 'send-on') {
        const value = thrownValueOf(shape.value)
        if (enclave.body !== value && enclave.body !== String(value)) return undefined
        return await replay(c.request, thrownRoute({ ...shape, raise: shape.raise === 'done' ? 'throw' : shape.raise, value: 'string' }))
          .then((a) => (a.statusCode === enclave.statusCode ? enclave : undefined))
      }
      // Else Fastify 3 asked with the Error Enclave makes of the value.
      return await replay(c.request, thrownRoute({ ...shape, raise: shape.raise === 'done' ? 'throw' : shape.raise, asError: true }))
    },
  },
]
