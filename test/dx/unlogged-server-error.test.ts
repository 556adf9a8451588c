// docs/errors.md (top, and "Boot warnings"): with no logger, the default, a 500 whose message the
// client does not see left no trace anywhere; the first one in the process is a process warning
// (ENC_WARN_UNLOGGED_SERVER_ERROR) that names the route, the error, the line and the fix
// (newcomer24c: a beginner's `throw new Error('not found')` and forgotten `return`).
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { expect } from 'chai'

const fixture = join(__dirname, 'fixtures', 'beginner-notes-app.js')

interface Run { statuses: number[]; warnings: Array<{ name: string; code?: string; message: string }>; stderr: string }

function run(urls: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [fixture, ...urls], { env: { ...process.env, ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
      const line = /RESULT (.*)/.exec(stdout)?.[1]
      if (error !== null || line === undefined) { reject(new Error(`fixture failed: ${String(error)}\n${stdout}\n${stderr}`)); return }
      resolve({ ...JSON.parse(line) as Omit<Run, 'stderr'>, stderr })
    })
  })
}

const code = 'ENC_WARN_UNLOGGED_SERVER_ERROR'

/** The run's ENC_WARN_UNLOGGED_SERVER_ERROR warnings, checked to be exactly one (stderr shown if not). */
function onlyOurWarning(result: Run): Run['warnings'] {
  const ours = result.warnings.filter((w) => w.code === code)
  expect(ours, result.stderr).to.have.length(1)
  return ours
}

describe('dx: the first unlogged 500 is one process warning (ENC_WARN_UNLOGGED_SERVER_ERROR)', function () {
  this.timeout(60_000)

  it('a plain Error thrown as a "404": one warning on stderr naming the route, the error, the line that threw, HttpError and the logger option, however many 500s', async () => {
    const result = await run(['/notes/7', '/notes/8', '/notes/forgot-return/1'])
    expect(result.statuses).to.deep.equal([500, 500, 500])
    const ours = onlyOurWarning(result)
    expect(ours[0].name).to.equal('EnclaveWarning')
    const message = ours[0].message
    expect(message).to.include('GET /notes/:id answered 500')
    expect(message).to.include('Error: not found')
    expect(message).to.match(/\(at NotesController\.get \(.*beginner-notes-app\.js:\d+:\d+\)\)/)
    expect(message).to.include("throw new HttpError(404, 'Note not found')")
    expect(message).to.include("createApp(AppModule, { logger: { level: 'error' } })")
    expect(result.stderr).to.include(`[${code}] EnclaveWarning: GET /notes/:id answered 500`)
  })

  it('an async handler that forgot `return`: the warning carries ENC_ERR_REPLY_NOTHING_SENT\'s fix, without the HttpError hint', async () => {
    const result = await run(['/notes/forgot-return/1'])
    expect(result.statuses).to.deep.equal([500])
    const ours = onlyOurWarning(result)
    expect(ours[0].message).to.include('GET /notes/forgot-return/:id answered 500')
    expect(ours[0].message).to.include('the handler gave undefined without sending a reply. Return the payload')
    expect(ours[0].message).to.not.include('HttpError')
  })

  it('no warning for a 4xx, an HttpError 5xx (its message is in the body) or a 200; the first hidden 500 after them still warns', async () => {
    const quiet = await run(['/notes/1', '/nothing-here', '/notes/gone'])
    expect(quiet.statuses).to.deep.equal([200, 404, 503])
    expect(quiet.warnings.filter((w) => w.code === code)).to.deep.equal([])
    const then = await run(['/notes/gone', '/notes/9'])
    expect(then.statuses).to.deep.equal([503, 500])
    expect(then.warnings.filter((w) => w.code === code)).to.have.length(1)
  })

  describe('the same once-per-process warning for failures logged at error level that answer no 5xx of their own', () => {
    it('a stream that fails after the head went out: names the route, "failed after the response had started" and the error', async () => {
      const result = await run(['/late/stream'])
      const ours = onlyOurWarning(result)
      expect(ours[0].message).to.include('GET /late/stream: failed after the response had started (the client got a cut-off response)')
      expect(ours[0].message).to.include('Error: disk went away')
    })

    it('an onResponse hook that throws once the 200 went out', async () => {
      const result = await run(['/late/on-response'])
      expect(result.statuses).to.deep.equal([200])
      const ours = onlyOurWarning(result)
      expect(ours[0].message).to.include('GET /late/on-response: an onResponse or onRequestAbort hook failed once the answer was over')
      expect(ours[0].message).to.include('Error: audit failed')
    })

    it('an onResponse hook that throws a value String() cannot show (Object.create(null)): the warning shows it, the process goes on serving', async () => {
      const result = await run(['/late/on-response-odd', '/late/on-response-odd'])
      expect(result.statuses).to.deep.equal([200, 200])
      const ours = onlyOurWarning(result)
      expect(ours[0].message).to.include('GET /late/on-response-odd: an onResponse or onRequestAbort hook failed once the answer was over')
      expect(ours[0].message).to.include('[Object: null prototype] {}')
    })

    it('a payload the serializer cannot write (a BigInt) answers 500 and warns, as a thrown Error does', async () => {
      const result = await run(['/late/bigint'])
      expect(result.statuses).to.deep.equal([500])
      const ours = onlyOurWarning(result)
      expect(ours[0].message).to.include('GET /late/bigint answered 500')
    })

    it("no warning for a 500 an app's own error handler answers: the error was handed to it, to log", async () => {
      const result = await run(['/custom/fails'])
      expect(result.statuses).to.deep.equal([500])
      expect(result.warnings.filter((w) => w.code === code)).to.deep.equal([])
    })
  })

  it('no warning when a logger is on: the error line is there', async () => {
    const result = await run(['/notes/7'], { WITH_LOGGER: '1' })
    expect(result.statuses).to.deep.equal([500])
    expect(result.warnings.filter((w) => w.code === code)).to.deep.equal([])
  })
})
