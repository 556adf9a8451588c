// A seeded generator (mulberry32): the same seed gives the same cases on every machine, so a
// difference found once can be replayed by its seed and index.
export class Random {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [low, high]. */
  int(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1))
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T
  }

  /** Up to `max` distinct items, in their original order. */
  some<T>(items: readonly T[], max: number): T[] {
    const chosen = new Set<T>()
    const count = this.int(0, Math.min(max, items.length))
    while (chosen.size < count) chosen.add(this.pick(items))
    return items.filter((item) => chosen.has(item))
  }
}
