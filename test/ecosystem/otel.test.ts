// OpenTelemetry with the real SDK, in a real process (test/fixtures/otel-app.ts): the HTTP
// server instrumentation, @fastify/otel (the Fastify-maintained instrumentation, registered as a
// plugin or through registerOnInitialization) and the pino instrumentation, over loopback.
// What an ops team reads in its tracing backend: one trace per request, continued from the
// caller's traceparent, the route template on the spans (never the raw URL, whose ids would
// blow up a backend's cardinality), hook and handler spans, errors recorded, and log lines
// carrying the trace id.
import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { join } from 'node:path'

const fixture = join(__dirname, '..', 'fixtures', 'otel-app.js')
const callerTrace = '0af7651916cd43dd8448eb211c80319c'
const callerSpan = 'b7ad6b7169203331'
const SERVER = 1
const INTERNAL = 0
const ERROR = 2

interface Span {
  name: string, kind: number, traceId: string, spanId: string, parentSpanId?: string
  attributes: Record<string, unknown>, status: { code: number, message?: string }, events: Array<{ name: string, attributes?: Record<string, unknown> }>
}
interface Report { statuses: number[], spans: Span[], lines: Array<Record<string, unknown>> }

function run(mode: 'plugin' | 'init'): Promise<Report> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [fixture], { env: { ...process.env, MODE: mode }, timeout: 20_000 }, (error, stdout, stderr) => {
      const line = stdout.split('\n').find((l) => l.startsWith('REPORT '))
      if (error !== null || line === undefined) { reject(new Error(`otel fixture (${mode}) failed: ${error?.message ?? ''} ${stderr} ${stdout}`)); return }
      resolve(JSON.parse(line.slice('REPORT '.length)) as Report)
    })
  })
}

for (const mode of ['plugin', 'init'] as const) {
  const how = mode === 'plugin' ? 'runtime API, app.register(instrumentation.plugin())' : 'module tree, registerOnInitialization'
  describe(`OpenTelemetry: @fastify/otel + instrumentation-http + instrumentation-pino (${how})`, function () {
    this.timeout(30_000)
    let report: Report
    const server = (route: string | undefined, status: number): Span => {
      const found = report.spans.find((s) => s.kind === SERVER && s.attributes['http.route'] === route && s.attributes['http.response.status_code'] === status)
      if (found === undefined) throw new Error(`no SERVER span for ${route} ${status}: ${JSON.stringify(report.spans.map((s) => [s.name, s.kind, s.attributes['http.route']]))}`)
      return found
    }
    const inTrace = (traceId: string) => report.spans.filter((s) => s.traceId === traceId)
    const requestSpan = (traceId: string) => inTrace(traceId).find((s) => s.name === 'request')!

    before(async () => { report = await run(mode) })

    it('answers as without tracing: 200, 500 for a thrown error, 404 for an unknown URL', () => {
      expect(report.statuses).to.deep.equal([200, 500, 404])
    })

    it('continues the caller\'s trace from traceparent: the HTTP server span is a child of the caller\'s span, @fastify/otel\'s request span of it', () => {
      const span = server('/api/users/:id', 200)
      expect([span.traceId, span.parentSpanId]).to.deep.equal([callerTrace, callerSpan])
      const request = requestSpan(callerTrace)
      expect([request.kind, request.parentSpanId]).to.deep.equal([INTERNAL, span.spanId])
      expect(request.attributes).to.include({ 'http.route': '/api/users/:id', 'http.request.method': 'GET', 'url.path': '/api/users/42', 'http.response.status_code': 200 })
    })

    it('names the server span after the route template with the prefix (GET /api/users/:id), which request.routeOptions.url gives the instrumentations', () => {
      expect(server('/api/users/:id', 200).name).to.equal('GET /api/users/:id')
      expect(server('/api/users/fail/:id', 500).name).to.equal('GET /api/users/fail/:id')
    })

    it('an unknown URL gets no http.route on any span (no raw path as a label), and its 404 is on the request span', () => {
      const span = server(undefined, 404)
      expect(span.name).to.equal('GET')
      for (const s of inTrace(span.traceId)) expect(s.attributes, s.name).to.not.have.property('http.route')
      expect(requestSpan(span.traceId).attributes).to.include({ 'http.response.status_code': 404 })
    })

    it('makes a span per hook and for the handler, children of the request span, named after the function', () => {
      const request = requestSpan(callerTrace)
      const children = inTrace(callerTrace).filter((s) => s.parentSpanId === request.spanId).map((s) => s.name).sort()
      expect(children).to.deep.equal(mode === 'plugin'
        ? ['handler - async (api) => { -- api.get(\'/users/:id\', async (request) => ({ id: request.params.id }));', 'preHandler - audit']
        : ['handler - Users.one', 'onRequest - Tenant.handle', 'preHandler - audit'])
    })

    it('records a thrown error: status ERROR with its message and an exception event on the request and handler spans; the server span is ERROR for the 500', () => {
      const failed = server('/api/users/fail/:id', 500)
      expect(failed.status.code).to.equal(ERROR)
      const request = requestSpan(failed.traceId)
      expect(request.status).to.deep.equal({ code: ERROR, message: 'database unavailable' })
      expect(request.events.map((e) => [e.name, e.attributes?.['exception.message']])).to.deep.equal([['exception', 'database unavailable']])
      const handler = inTrace(failed.traceId).find((s) => s.name.startsWith('handler - '))!
      expect(handler.status).to.deep.equal({ code: ERROR, message: 'database unavailable' })
    })

    it('correlates the log lines: every line a request causes carries its trace_id (and a span_id of that trace) beside reqId', () => {
      const requestLines = report.lines.filter((line) => line.reqId !== undefined)
      expect(requestLines.length).to.be.greaterThan(6)
      const traceOf = new Map<unknown, unknown>()
      for (const line of requestLines) {
        expect(line, JSON.stringify(line)).to.have.property('trace_id')
        expect(inTrace(line.trace_id as string).map((s) => s.spanId), JSON.stringify(line)).to.include(line.span_id)
        // One trace per request id.
        if (traceOf.has(line.reqId)) expect(traceOf.get(line.reqId)).to.equal(line.trace_id)
        traceOf.set(line.reqId, line.trace_id)
      }
      expect(traceOf.get('req-1')).to.equal(callerTrace)
      // The error's own line is logged inside the failed request's span.
      const errorLine = requestLines.find((line) => line.msg === 'database unavailable')!
      expect(errorLine.span_id).to.equal(requestSpan(errorLine.trace_id as string).spanId)
    })
  })
}
