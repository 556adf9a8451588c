// A PostgreSQL server of the test's own: a fresh cluster (initdb) in a temporary directory, served
// by `postgres` on a free loopback port, stopped by its pid and removed at the end. Every wait is
// bounded. Without the server binaries the test fails with an install hint, never skips.
import { spawn, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../support/free-port'
import { Client } from 'pg'
import { waitForOutput, type Child } from '../redis/processes'

const INSTALL_HINT = 'Install it from the OS packages (Debian: apt-get update && apt-get install -y --no-install-recommends postgresql); .ci/run does this on CI.'

/** The newest /usr/lib/postgresql/<major>/bin holding initdb and postgres (Debian's layout), else on PATH. */
export function postgresBinaries(root = '/usr/lib/postgresql', path = process.env.PATH ?? ''): { initdb: string; postgres: string } {
  const majors = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : []
  for (const major of majors) {
    const bin = join(root, major, 'bin')
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres'))) return { initdb: join(bin, 'initdb'), postgres: join(bin, 'postgres') }
  }
  const onPath = (name: string): string => (spawnSync('/bin/sh', ['-c', `command -v ${name}`], { encoding: 'utf8', env: { PATH: path } }).stdout ?? '').trim()
  const initdb = onPath('initdb')
  const postgres = onPath('postgres')
  if (initdb !== '' && postgres !== '') return { initdb, postgres }
  throw new Error(`PostgreSQL's server binaries (initdb, postgres) were not found under ${root}/*/bin or on PATH, so the PostgreSQL service test cannot run. ${INSTALL_HINT}`)
}

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` user the package creates. */
function runAs(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined
  const id = (flag: string): number => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim())
  const uid = id('-u')
  const gid = id('-g')
  if (!Number.isInteger(uid) || uid <= 0) throw new Error(`PostgreSQL will not run as root and there is no postgres user to run it as. ${INSTALL_HINT}`)
  return { uid, gid }
}

export interface Postgres { child: Child; port: number; dir: string; url: string }

/**
 * initdb (trust auth, user `app`, no fsync), then `postgres` on a free port with its socket in the
 * cluster's directory, once it says it accepts connections. Durability is off: the data dies with the test.
 */
export async function startPostgres(): Promise<Postgres> {
  const bin = postgresBinaries()
  const user = runAs()
  const dir = mkdtempSync(join(tmpdir(), 'enclave-pg-'))
  if (user !== undefined) chownSync(dir, user.uid, user.gid)
  const data = join(dir, 'data')
  const init = spawnSync(bin.initdb, ['-D', data, '-A', 'trust', '-U', 'app', '-E', 'UTF8', '--no-sync'], { encoding: 'utf8', timeout: 30_000, ...user })
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`initdb failed (${init.status ?? init.signal}): ${init.stderr}${init.stdout}`)
  }
  let lastError: unknown
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort()
    const child = startAs(bin.postgres, ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
      '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'], user)
    try {
      await waitForOutput(child, /database system is ready to accept connections/, `postgres on 127.0.0.1:${port}`)
      return { child, port, dir, url: `postgres://app@127.0.0.1:${port}/postgres` }
    } catch (error) {
      lastError = error
      await stop(child)
    }
  }
  rmSync(dir, { recursive: true, force: true })
  throw lastError
}

function startAs(command: string, args: string[], user: { uid: number; gid: number } | undefined): Child {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...user })
  const output = { text: '' }
  child.stdout?.on('data', (chunk: Buffer) => { output.text += chunk.toString() })
  child.stderr?.on('data', (chunk: Buffer) => { output.text += chunk.toString() })
  return { process: child, output }
}

/** SIGINT by pid (PostgreSQL's fast shutdown: it does not wait for clients), SIGKILL after the limit. */
async function stop(child: Child): Promise<void> {
  const proc = child.process
  if (proc.exitCode !== null || proc.signalCode !== null || proc.pid === undefined) return
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
  process.kill(proc.pid, 'SIGINT')
  const timer = setTimeout(() => { if (proc.exitCode === null && proc.signalCode === null && proc.pid !== undefined) process.kill(proc.pid, 'SIGKILL') }, 10_000)
  await exited
  clearTimeout(timer)
}

/** Stops the server by its pid (SIGTERM, bounded) and removes its directory. */
export async function stopPostgres(pg: Postgres | undefined): Promise<void> {
  if (pg === undefined) return
  await stop(pg.child)
  rmSync(pg.dir, { recursive: true, force: true })
}

/**
 * Waits (bounded) until no other client backend is connected: pool.end() resolves once its clients
 * are told to end, before their sockets close, and a server stopped in between sends them an error.
 */
export async function untilOnlyConnection(url: string): Promise<void> {
  // A Client, not a Pool: client.end() resolves once its socket has closed.
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      const { rows } = await client.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()")
      if (rows[0]!.n === 0) return
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  } finally { await client.end() }
}
