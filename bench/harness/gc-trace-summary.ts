/**
 * Reads V8's `--trace-gc-nvp` lines (one `key=value` line per collection) into what issue 16's
 * memory question needs: how much survives each scavenge, how much is promoted, and how large the
 * young generation runs. A scavenge costs in proportion to what survives it, and V8 grows the young
 * generation as survivors add up, so these tell "something keeps requests alive" apart from "the
 * young generation is simply large" (it is sized by what survived at boot and does not shrink under load).
 */
import { median } from './stats'

export interface GcTraceSummary {
  readonly scavenges: number
  readonly markCompacts: number
  /** Bytes allocated between scavenges, median: how much of the young generation each cycle fills. */
  readonly medianAllocatedPerScavenge: number | null
  /** Bytes that survived a scavenge (copied or promoted), median over scavenges. */
  readonly medianSurvivedPerScavenge: number | null
  readonly survivedBytes: number
  readonly promotedBytes: number
  readonly allocatedBytes: number
  /** Wall-clock scavenge pauses, ms (background threads pinned to a shared core stretch these). */
  readonly scavengePauseMs: number
}

type Fields = Record<string, string>

function fieldsOf(line: string): Fields | null {
  const at = line.indexOf('pause=')
  if (at === -1) return null
  const fields: Fields = {}
  for (const pair of line.slice(at).trim().split(/\s+/)) {
    const eq = pair.indexOf('=')
    if (eq > 0) fields[pair.slice(0, eq)] = pair.slice(eq + 1)
  }
  return fields.gc === undefined ? null : fields
}

const numberOf = (fields: Fields, key: string): number => {
  const value = Number.parseFloat(fields[key] ?? '')
  return Number.isFinite(value) ? value : 0
}

/**
 * `skipScavenges`: leading scavenges left out, so that what a warm-up or boot left in the young
 * generation (promoted once, then never again) is not counted as per-request survival.
 */
export function summarizeGcTrace(text: string, skipScavenges = 0): GcTraceSummary {
  const collections = text.split('\n').map(fieldsOf).filter((f): f is Fields => f !== null)
  const scavenges = collections.filter((f) => f.gc === 's').slice(skipScavenges)
  const sum = (key: string): number => scavenges.reduce((total, f) => total + numberOf(f, key), 0)
  return {
    scavenges: scavenges.length,
    markCompacts: collections.filter((f) => f.gc === 'mc' || f.gc === 'ms').length,
    medianAllocatedPerScavenge: median(scavenges.map((f) => numberOf(f, 'allocated'))),
    medianSurvivedPerScavenge: median(scavenges.map((f) => numberOf(f, 'new_space_survived') + numberOf(f, 'promoted'))),
    survivedBytes: sum('new_space_survived') + sum('promoted'),
    promotedBytes: sum('promoted'),
    allocatedBytes: sum('allocated'),
    scavengePauseMs: sum('pause'),
  }
}
