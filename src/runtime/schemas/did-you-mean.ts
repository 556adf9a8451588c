/**
 * The known name closest to a misspelt one, for "did you mean" hints in declaration errors; null
 * when nothing is close enough to be a likely typo (a third of the name's length, at least 1, at
 * most `maxDistance` (3) edits, or one name a case-insensitive match of the other).
 */
export function closestName(name: string, known: Iterable<string>, maxDistance = 3): string | null {
  const lower = name.toLowerCase()
  const budget = Math.max(1, Math.min(maxDistance, Math.floor(name.length / 3)))
  let best: string | null = null
  let bestDistance = Infinity
  for (const candidate of known) {
    if (candidate.toLowerCase() === lower) return candidate
    const distance = editDistance(lower, candidate.toLowerCase(), budget)
    if (distance < bestDistance) { best = candidate; bestDistance = distance }
  }
  return bestDistance <= budget ? best : null
}

/** ` (did you mean 'x'?)` or an empty string: ready to append to a message. */
export function didYouMean(name: string, known: Iterable<string>): string {
  const closest = closestName(name, known)
  return closest === null ? '' : ` (did you mean '${closest}'?)`
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions: `requird`,
 * `maxLenght`), cut off at `max + 1` so that long unrelated names cost little.
 */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let prevPrev: number[] = []
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, prevPrev[j - 2] + 1)
      row.push(value)
      if (value < rowMin) rowMin = value
    }
    if (rowMin > max) return max + 1
    prevPrev = prev
    prev = row
  }
  return prev[b.length]
}
