// README differences met by the serializers family (serializers.ts): its bodies are written by the
// app's own serializers, so the rules that read a JSON error body cannot see into them.
import type { Answer } from './case'
import type { KnownDifference } from './difference-types'
import { serializersRoute } from './serializers'

function text(a: Answer): string | undefined {
  return typeof a.body === 'string' ? a.body : a.body === undefined ? undefined : JSON.stringify(a.body)
}

export const SERIALIZERS_DIFFERENCES: KnownDifference[] = [
  {
    id: 'serializers-default-key',
    readme: 'The response schema key `default` (Fastify 4/5; Fastify 3 knows only status codes and `Nxx`\n  ranges) covers every status no code or range key names, error replies included',
    async rewrite(_f, { c, replay }) {
      const shape = c.serializers
      if (shape?.schema !== 'default' || shape.defaultAs !== undefined) return undefined
      // Fastify 3 asked with the `default` schema under every status the route may answer; its
      // compiled function is told that status, Enclave's (as Fastify 4/5's) the key `default`.
      const replayed = await replay(c.request, serializersRoute({ ...shape, defaultAs: [200, 201, 400, 500] }))
      const written = text(replayed)
      if (written === undefined) return replayed
      const named = written.replace(/-compiler\[(\d{3})\]:/, '-compiler[default]:').replace(/-COMPILER\[(\d{3})\]:/, '-COMPILER[DEFAULT]:')
      if (named === written) return replayed
      const body = typeof replayed.body === 'string' ? named : JSON.parse(named) as unknown
      return { ...replayed, headers: { ...replayed.headers, 'content-length': String(Buffer.byteLength(named)) }, body }
    },
  },
  {
    id: 'serializers-error-own-properties',
    readme: 'An error reply written by a response schema\'s serializer that the app compiled itself',
    rewrite(f, { c, enclave }) {
      const shape = c.serializers
      if (shape === undefined || !shape.ending.startsWith('throw') || (shape.compiler === 'none' && !shape.routeCompiler)) return undefined
      // Fastify 3 hands its compiled function the error's own properties as non-enumerable: JSON.stringify writes `{}`.
      const theirs = text(f)
      const ours = text(enclave)
      if (theirs === undefined || ours === undefined || f.statusCode !== enclave.statusCode) return undefined
      const at = theirs.search(/:\{\}/)
      if (at === -1 || !ours.startsWith(theirs.slice(0, at + 2)) || ours.length <= theirs.length) return undefined
      return enclave
    },
  },
  {
    id: 'serializers-five-hundred-hides-message',
    readme: 'A 5xx never shows the thrown message unless the error says it is meant for the client',
    rewrite(f, { c, enclave }) {
      if (c.serializers?.ending !== 'throw 500' || f.statusCode !== 500) return undefined
      const theirs = text(f)
      if (theirs === undefined) return undefined
      // The thrown message as the app's serializer or onSend hook wrote it (upper-cased, or inside another JSON text).
      const hidden = theirs.replace(/"message\\?":\\?"broke\\?"/, (m) => m.replace('broke', 'Internal Server Error')).replace(/"MESSAGE\\?":\\?"BROKE\\?"/, (m) => m.replace('BROKE', 'INTERNAL SERVER ERROR'))
      if (hidden === theirs) return undefined
      const body = typeof f.body === 'string' ? hidden : JSON.parse(hidden) as unknown
      return { ...f, headers: { ...f.headers, 'content-length': String(Buffer.byteLength(hidden)) }, body }
    },
  },
]
