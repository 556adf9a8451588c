import type { ChildProcess } from 'node:child_process'
import { READY_PREFIX } from '../servers/ready-line'

/**
 * The port a bench server announces on its ready line (servers/ready-line.ts), looked for in the
 * stdout gathered so far (`out`). The server is killed if no line comes within 20 s; an exit before
 * it rejects. Shared by the tools that spawn a server with flags of their own (cpu-account,
 * gc-trace, alloc-account); the load harness reads the line itself (server-process.ts).
 */
export function readyPort(child: ChildProcess, name: string, out: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null): void => {
      clearInterval(poll)
      clearTimeout(timer)
      reject(new Error(`${name} exited before ready (code ${code})`))
    }
    const timer = setTimeout(() => {
      clearInterval(poll)
      child.off('exit', onExit)
      child.kill('SIGKILL')
      reject(new Error(`${name}: no ready line within 20 s`))
    }, 20_000)
    const poll = setInterval(() => {
      const ready = new RegExp(`^${READY_PREFIX}(\\d+)$`, 'm').exec(out())
      if (ready === null) return
      clearInterval(poll)
      clearTimeout(timer)
      child.off('exit', onExit)
      resolve(Number(ready[1]))
    }, 50)
    child.once('exit', onExit)
  })
}
