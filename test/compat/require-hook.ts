// Points the requires of Fastify's test files at our stand-ins: a require of Fastify's package
// root (`'..'` from test/, `'../..'` from test/http2/ and test/https/) gets the Enclave adapter,
// `require('tap')` the tap shim, `require('h2url')` and `require('../build-certificate')` the
// stand-ins of stand-ins.ts (Fastify's devDependencies h2url and pem are not installed here).
// Everything else (the test helpers, npm packages, Fastify's own lib/ internals) resolves as it
// normally would, so a test that reaches into Fastify's internals fails visibly rather than being faked.
import Module from 'node:module'
import path from 'node:path'

interface ModuleInternals {
  _resolveFilename(request: string, parent: { filename?: string } | null, ...rest: unknown[]): string
}

export interface HookTargets { adapter: string; tap: string; h2url: string; certificate: string }

/** Installs the hook for requires made from files under `testDir`. */
export function installRequireHook(testDir: string, targets: HookTargets): void {
  const internals = Module as unknown as ModuleInternals
  const resolve = internals._resolveFilename
  const prefix = testDir.endsWith(path.sep) ? testDir : testDir + path.sep
  const packageRoot = path.dirname(testDir)
  const fastifyEntries = new Set(['', '/fastify', '/fastify.js', '/index', '/index.js'].map((end) => packageRoot + end))
  const certificate = path.join(testDir, 'build-certificate')
  internals._resolveFilename = function (request, parent, ...rest) {
    const from = parent?.filename ?? ''
    if (from.startsWith(prefix)) {
      if (request === 'tap') return targets.tap
      if (request === 'h2url') return targets.h2url
      if (request.startsWith('.')) {
        const target = path.resolve(path.dirname(from), request).replace(/[\\/]$/, '')
        if (fastifyEntries.has(target)) return targets.adapter
        if (target === certificate || target === certificate + '.js') return targets.certificate
      }
    }
    return resolve.call(this, request, parent, ...rest)
  }
}
