/**
 * The wrk runner. The request (method, body, headers, pipelining) goes in a generated Lua
 * script; the figures come from wrk's text report (`--latency` adds the 99th percentile).
 */
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LoadSpec, LoadResult, LOAD_GRACE_MS } from './load'
import { pinned } from './pinning'
import { runChild } from './run-child'
import { HOST } from '../servers/ready-line'

/**
 * A Lua long string: no escapes inside. Its level (the `=` count) is the lowest at which the
 * first closing bracket is the one we append, so no text can end it early. Lua drops a newline
 * right after the opening bracket, so one is added where the text starts with a newline.
 */
export function luaString(text: string): string {
  for (let eq = ''; ; eq += '=') {
    const close = `]${eq}]`
    if (`${text}${close}`.indexOf(close) === text.length) return `[${eq}[${text.startsWith('\n') ? '\n' : ''}${text}${close}`
  }
}

export function luaScript(spec: LoadSpec): string {
  const { method, body, headers } = spec.endpoint
  const lines = [`wrk.method = "${method}"`]
  for (const [name, value] of Object.entries(headers)) lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`)
  if (body !== null) {
    lines.push(`wrk.body = ${luaString(body)}`, 'wrk.headers["Content-Type"] = "application/json"')
  }
  // One pre-formatted string holding `pipelining` requests, sent as a batch.
  lines.push(
    'local batch',
    `init = function() local r = {} for i = 1, ${spec.pipelining} do r[i] = wrk.format() end batch = table.concat(r) end`,
    'request = function() return batch end',
  )
  return `${lines.join('\n')}\n`
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 }

function parse(text: string): LoadResult {
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(text)
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)/m.exec(text)
  if (total === null || p99 === null) throw new Error(`could not read wrk's report:\n${text}`)
  const requests = Number(total[1])
  const seconds = (Number(total[2]) * UNIT_MS[total[3]]) / 1000
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text)
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text)
  return {
    requests,
    seconds,
    rps: requests / seconds,
    p99Ms: Number(p99[1]) * UNIT_MS[p99[2]],
    errorStatuses: non2xx === null ? 0 : Number(non2xx[1]),
    socketErrors: socket === null ? 0 : socket.slice(1).reduce((sum, n) => sum + Number(n), 0),
  }
}

export async function runWrk(spec: LoadSpec): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'enclave-bench-'))
  try {
    const script = join(dir, 'request.lua')
    writeFileSync(script, luaScript(spec))
    const threads = Math.max(1, Math.min(spec.threads, spec.connections))
    const url = `http://${HOST}:${spec.port}${spec.endpoint.path}`
    const args = ['-t', String(threads), '-c', String(spec.connections), '-d', `${spec.seconds}s`, '--latency', '--timeout', '10s', '-s', script, url]
    const [command, argv] = pinned(spec.cpuList, 'wrk', args)
    const out = await runChild(command, argv, spec.seconds * 1000 + LOAD_GRACE_MS)
    if (out.code !== 0) throw new Error(`wrk exited with code ${out.code}: ${out.stderr.trim() || out.stdout.trim()}`)
    // wrk reports an error in the generated script and then runs anyway, without the request
    // it describes: that would measure the wrong request, so it is a failed run.
    const scriptError = /\.lua:\d+:.*/.exec(out.stderr)
    if (scriptError !== null) throw new Error(`wrk could not run the generated request script: ${scriptError[0]}`)
    return parse(out.stdout)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
