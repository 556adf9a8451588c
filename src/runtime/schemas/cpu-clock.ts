/**
 * CPU time in milliseconds, for app.bootProfile(): on a shared or fractional-vCPU host the wall
 * time of a compile counts the time other processes ran, and can be ten times its CPU time.
 * This thread's CPU where Node has it (process.threadCpuUsage, Node >= 23.9: a logger's worker
 * thread is not counted), else the process's. One call costs about a microsecond (a getrusage call).
 */
type CpuUsage = () => { user: number; system: number }

export function cpuNowMs(): number {
  // Looked up on each call, not once: cheap next to the getrusage call itself.
  const thread = (process as unknown as { threadCpuUsage?: CpuUsage }).threadCpuUsage
  const { user, system } = thread === undefined ? process.cpuUsage() : thread.call(process)
  return (user + system) / 1000
}
