/**
 * CPU time a process has used (user + system, all its threads, GC included), read from
 * /proc/<pid>/stat. Read before and after a load run, divided by the requests served, it gives
 * the CPU cost per request: the figure that stays stable on a shared machine where req/s does not.
 */
import { readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'

let ticksPerSecond: number | null = null

function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5000 }).trim()) || 100
    } catch {
      ticksPerSecond = 100
    }
  }
  return ticksPerSecond
}

/** Microseconds of CPU used so far by `pid`, or null where /proc is not available. */
export function cpuMicros(pid: number): number | null {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // The command name (field 2) may hold spaces and parentheses: split after the last ')'.
  // What follows starts at field 3 (state); utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return Number.isFinite(ticks) ? (ticks * 1e6) / clockTicks() : null
}
