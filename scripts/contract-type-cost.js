// The type cost of a 20-route contract (docs/openapi-and-client.md, "Typed client"): `tsc --extendedDiagnostics` on each
// file of test/types/cost/ (a baseline of the schemas alone; the 20 routes declared directly; the
// contract and implement(); that and a client call of every route), each in a program of its own
// with the project's options. Instantiation counts are
// deterministic (the figure); the check times are this machine's and only indicative.
'use strict'
const { execFileSync } = require('node:child_process')
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')

const root = join(__dirname, '..')
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')

function measure(file) {
  const dir = mkdtempSync(join(tmpdir(), 'contract-cost-'))
  try {
    const config = join(dir, 'tsconfig.json')
    writeFileSync(config, JSON.stringify({ extends: join(root, 'tsconfig.json'), compilerOptions: { noEmit: true, incremental: false, typeRoots: [join(root, 'node_modules', '@types')] }, files: [join(root, file)], include: [] }))
    const out = execFileSync(process.execPath, [tsc, '-p', config, '--extendedDiagnostics'], { encoding: 'utf8', timeout: 300_000 })
    const read = (label) => { const m = new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(out); return m === null ? NaN : Number(m[1]) }
    return { instantiations: read('Instantiations'), types: read('Types'), checkTime: read('Check time') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const base = measure('test/types/cost/contract-20-baseline.ts')
const plain = measure('test/types/cost/contract-20-plain.ts')
const server = measure('test/types/cost/contract-20-server.ts')
const full = measure('test/types/cost/contract-20-routes.ts')
const over = (m) => `${m.instantiations - base.instantiations} instantiations over the baseline (${Math.round((m.instantiations - base.instantiations) / 20)} a route), ${m.types - base.types} types, check ${m.checkTime}s`
console.log(`baseline (the schemas, nothing declared): ${base.instantiations} instantiations, ${base.types} types, check ${base.checkTime}s`)
console.log(`20 routes declared directly (app.route):  ${over(plain)}`)
console.log(`the 20-route contract + implement():      ${over(server)}`)
console.log(`... + a client call of every route:       ${over(full)}`)
