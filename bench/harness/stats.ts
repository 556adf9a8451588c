// Medians over rounds: one slow round (a neighbour's cron job, a GC storm) does not move them.

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Rotates `items` left by `by`: round r starts with a different contender each time. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) return []
  const k = by % items.length
  return [...items.slice(k), ...items.slice(0, k)]
}

/**
 * The order of one round: `rotate`, except that the two contenders of `pair` (the decorator layer
 * and the runtime API it is judged against, within 3%) always run back to back, the first of them
 * alternating from round to round. Their paired ratio then compares two runs seconds apart instead
 * of runs that up to four other contenders separate, and neither always runs second.
 */
export function pairedOrder<T>(items: readonly T[], by: number, round: number, pair: readonly [(item: T) => boolean, (item: T) => boolean]): T[] {
  const first = items.find(pair[0])
  const second = items.find(pair[1])
  if (first === undefined || second === undefined) return rotate(items, by)
  // The pair rotates as one unit, in the place of its first member.
  const units: T[][] = []
  for (const item of items) {
    if (item === second) continue
    units.push(item === first ? (round % 2 === 0 ? [first, second] : [second, first]) : [item])
  }
  return rotate(units, by).flat()
}
