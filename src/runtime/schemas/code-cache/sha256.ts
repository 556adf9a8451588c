import { createHash, hash } from 'node:crypto'

/**
 * SHA-256 of a text, hex. node's one-shot crypto.hash (20.12+) when there is one: the schema cache
 * hashes two texts per function at boot, and a Hash object per call costs about as much as the hashing.
 */
export const sha256: (text: string) => string = typeof hash === 'function'
  ? (text) => hash('sha256', text, 'hex')
  : (text) => createHash('sha256').update(text).digest('hex')
