import { spawn, type ChildProcess } from 'node:child_process'

/** A fixture script running in its own process, once it printed `LISTENING <address>`. */
export interface ListeningChild { child: ChildProcess; address: string; output: () => string; exited: Promise<number | null> }

/**
 * Spawns `fixture` with `env` added, records it in `started` (the suite stops what it started, by
 * pid) and resolves once it prints `LISTENING <address>`: within 3,000 polls of 10 ms (30 s or
 * more), or at once if the child exits first; either failure carries its output. Not 10 s: a
 * fixture loads the whole dist (~0.4 s of CPU), which took 6-13 s on a loaded 2-core machine.
 */
export async function startListening(fixture: string, env: Record<string, string>, started: ChildProcess[]): Promise<ListeningChild> {
  const child = spawn(process.execPath, [fixture], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  started.push(child)
  let text = ''
  child.stdout?.on('data', (chunk: Buffer) => { text += chunk.toString() })
  child.stderr?.on('data', (chunk: Buffer) => { text += chunk.toString() })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  for (let i = 0; i < 3_000 && !/LISTENING (\S+)/.test(text) && child.exitCode === null; i++) await new Promise((resolve) => setTimeout(resolve, 10))
  const address = /LISTENING (\S+)/.exec(text)?.[1]
  if (address === undefined) throw new Error(`the fixture did not listen within 30 s${child.exitCode === null ? '' : ` (it exited with ${child.exitCode})`}; output: ${text}`)
  return { child, address, output: () => text, exited }
}
