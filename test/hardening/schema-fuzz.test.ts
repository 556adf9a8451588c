// The schema-aware input fuzz (schema-fuzz-*.ts) over a fixed seed set: drawn route schemas, valid
// inputs mutated into hostile ones, the same route on Enclave and Fastify 3.27.4. More seeds, and
// Fastify 5 beside: `npm run fuzz -- --inputs=1 --seeds=500 [--f5=1]`.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { server } from '../support/servers'
import { KNOWN, SHARED_BREACHES } from './schema-fuzz-known'
import { schemaFuzzRun } from './schema-fuzz-run'

const SEEDS = 25
const PER_SEED = 30

describe('hardening: schema-aware input fuzz against Fastify 3', function () {
  this.timeout(60_000)

  it(`${SEEDS} drawn routes x ${PER_SEED} valid and mutated requests: Enclave answers the echo or a 4xx in the error contract, no polluted prototype reaches the handler, validated values satisfy their schemas, every difference from Fastify 3 is one README lists`, async () => {
    const r = await schemaFuzzRun({ from: 1, seeds: SEEDS, perSeed: PER_SEED })
    expect(r.requests).to.equal(SEEDS * PER_SEED)
    expect(r.violations, r.violations.slice(0, 5).join('\n')).to.deep.equal([])
    expect(r.unexplained, r.unexplained.slice(0, 5).join('\n')).to.deep.equal([])
    // The draw reaches both sides of validation.
    expect(r.statuses.get(200) ?? 0).to.be.greaterThan(SEEDS * 3)
    expect(r.statuses.get(400) ?? 0).to.be.greaterThan(SEEDS * 3)
  })

  it('every difference the fuzz accepts is written in README, every shared ajv 6 behaviour in docs/schemas-and-types.md', () => {
    const read = (file: string): string => readFileSync(join(__dirname, '../../..', file), 'utf8').replace(/\s+/g, ' ')
    const readme = read('README.md')
    for (const entry of KNOWN) expect(readme, entry.id).to.include(entry.readme.replace(/\s+/g, ' '))
    const schemas = read('docs/schemas-and-types.md')
    for (const entry of SHARED_BREACHES) expect(schemas, entry.id).to.include(entry.readme.replace(/\s+/g, ' '))
  })

  it('a JSON body with an escaped constructor key holding null reaches the handler (Fastify 3 answers 400 with a TypeError message)', async () => {
    const app = server()
    app.post('/b', async (request) => request.body)
    const res = await app.inject({ method: 'POST', url: '/b', headers: { 'content-type': 'application/json' }, payload: '{"\\u0063onstructor":null,"a":1}' })
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ constructor: null, a: 1 })
  })

  it('a request with two faults is answered by the first check made: an unsupported media type (415) before a route parameter with a bad percent-escape', async () => {
    const app = server()
    app.post('/r/:p', { schema: { body: { type: 'object' } } }, async () => ({ ok: true }))
    const res = await app.inject({ method: 'POST', url: '/r/%E0%A4', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' })
    expect(res.statusCode).to.equal(415)
    const alone = await app.inject({ method: 'POST', url: '/r/%E0%A4', headers: { 'content-type': 'application/json' }, payload: '{}' })
    expect(alone.statusCode).to.equal(400)
  })

  it('ajv 6 keeps a value coerced inside a failed oneOf branch, as in Fastify 3: "true" under oneOf [boolean, enum of strings] reaches the handler as the string "true"', async () => {
    const app = server()
    app.get('/q', { schema: { querystring: { type: 'object', properties: { t: { oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['x', 'y'] }] } } } } }, async (request) => ({ t: (request.query as { t: unknown }).t }))
    const res = await app.inject({ method: 'GET', url: '/q?t=true' })
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ t: 'true' })
  })
})
