/**
 * The soak's memory record: the server's RSS once a second, read from /proc/<pid>/status (no
 * work in the server's event loop; IPC's process.memoryUsage() where /proc is missing), and
 * the figures that tell a leak from a warm-up: start, after warm-up, peak, end, and the slope
 * of the second half (a server that keeps nothing levels off: its slope is near zero).
 */
import { readFileSync } from 'node:fs'

export interface MemorySample { second: number; rssBytes: number }

/** The resident set size of `pid` in bytes, or null when /proc is not available. */
export function procRss(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)
    return match === null ? null : Number(match[1]) * 1024
  } catch {
    return null
  }
}

export interface MemoryReport {
  start: number
  warm: number
  warmSecond: number
  peak: number
  peakSecond: number
  end: number
  /** Least-squares slope over the second half of the run, bytes per minute. */
  secondHalfSlope: number
}

export function summarizeMemory(samples: readonly MemorySample[], warmSeconds: number): MemoryReport {
  if (samples.length === 0) throw new Error('soak: no memory sample was taken')
  const warmSample = samples.find((s) => s.second >= warmSeconds) ?? samples[samples.length - 1]
  let peak = samples[0]
  for (const sample of samples) if (sample.rssBytes > peak.rssBytes) peak = sample
  return {
    start: samples[0].rssBytes,
    warm: warmSample.rssBytes,
    warmSecond: warmSample.second,
    peak: peak.rssBytes,
    peakSecond: peak.second,
    end: samples[samples.length - 1].rssBytes,
    secondHalfSlope: slope(samples.slice(Math.floor(samples.length / 2))) * 60,
  }
}

/** Bytes per second, least squares; 0 with fewer than two samples. */
function slope(samples: readonly MemorySample[]): number {
  const n = samples.length
  if (n < 2) return 0
  let sx = 0
  let sy = 0
  let sxx = 0
  let sxy = 0
  for (const { second, rssBytes } of samples) {
    sx += second
    sy += rssBytes
    sxx += second * second
    sxy += second * rssBytes
  }
  const denominator = n * sxx - sx * sx
  return denominator === 0 ? 0 : (n * sxy - sx * sy) / denominator
}

export const mib = (bytes: number): string => (bytes / (1024 * 1024)).toFixed(1)
export const signedMib = (bytes: number): string => `${bytes >= 0 ? '+' : ''}${mib(bytes)}`
