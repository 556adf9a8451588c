/**
 * mulberry32: a tiny seeded PRNG (32-bit state). Seeded runs repeat request for request, which
 * is what the soak load and the fuzz test need from randomness; it is not for anything secret.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
