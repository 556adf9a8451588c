// Points the requires of Fastify's test files at our stand-ins: `require('..')`, `'../'` and
// `'../fastify'` get the Enclave adapter, `require('tap')` the tap shim. Everything else (the
// test helpers, npm packages, Fastify's own lib/ internals) resolves as it normally would, so a
// test that reaches into Fastify's internals fails visibly rather than being faked.
import Module from 'node:module'
import path from 'node:path'

interface ModuleInternals {
  _resolveFilename(request: string, parent: { filename?: string } | null, ...rest: unknown[]): string
}

const fastifyEntries = new Set(['..', '../', '../fastify', '../fastify.js', '../index', '../index.js'])

/** Installs the hook for requires made from files under `testDir`. */
export function installRequireHook(testDir: string, targets: { adapter: string; tap: string }): void {
  const internals = Module as unknown as ModuleInternals
  const resolve = internals._resolveFilename
  const prefix = testDir.endsWith(path.sep) ? testDir : testDir + path.sep
  internals._resolveFilename = function (request, parent, ...rest) {
    const from = parent?.filename ?? ''
    if (from.startsWith(prefix)) {
      if (fastifyEntries.has(request)) return targets.adapter
      if (request === 'tap') return targets.tap
    }
    return resolve.call(this, request, parent, ...rest)
  }
}
