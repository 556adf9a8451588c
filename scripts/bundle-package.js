// The published runtime as one CommonJS file (cold start, issue 16). A fresh node spends most of
// require('enclave') opening and compiling ~250 small files; one file is read and compiled once.
// Run by `npm run build:package` after tsc has written dist/src (JS, source maps and .d.ts):
// esbuild bundles tsc's JavaScript, not the .ts, so the code that runs is exactly what the test
// suite runs (tsc's decorator metadata, class fields, helpers), only concatenated. Each CommonJS
// file keeps its own wrapper and runs on its first require(), so the modules Enclave loads on
// first use (the cluster runner, the schema cache, the inspection renderers) stay lazy, in the
// same order. Packages ("dependencies", peers) and node builtins stay external: one copy per app.
// The .d.ts tree is left as tsc wrote it; every other .js and .js.map under dist/src is removed,
// so nothing can deep-import a second copy of a class.
'use strict'
const { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs')
const { join } = require('node:path')
const { buildSync } = require('esbuild')

const root = join(__dirname, '..')
const distSrc = join(root, 'dist', 'src')
const entry = join(distSrc, 'index.js')

// Node finds an ES module importer's named exports by reading the CommonJS text (cjs-module-lexer);
// a bundle's entry is `module.exports = require_index()`, which it cannot read. The names are
// listed where the lexer looks, in the form esbuild itself writes for this purpose (never run).
function bundle(entry, platform) {
  const names = Object.keys(require(entry)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default')
  const staging = entry.replace(/\.js$/, '.bundle.js')
  buildSync({
    entryPoints: [entry],
    outfile: staging,
    bundle: true,
    platform,
    format: 'cjs',
    target: platform === 'node' ? 'node20' : 'es2022',
    // Every bare specifier stays a run-time require() from the app's node_modules: "dependencies",
    // peers, deep paths ('ajv/lib/compile/equal') and packages Enclave only probes for (ajv-errors,
    // swagger-ui-dist), which must be the app's own or absent, never a copy frozen into the bundle.
    packages: 'external',
    // tsc's maps are read and chained: --enable-source-maps then shows src/**/*.ts lines. The .ts
    // are not shipped and their text is left out of the map, which keeps it small.
    sourcemap: 'linked',
    sourcesContent: false,
    // No renaming, no minifying: function and class names in stack traces and messages stay tsc's.
    minify: false,
    legalComments: 'none',
    footer: { js: `0 && (module.exports = { ${names.join(', ')} });` },
    logLevel: 'warning',
  })
  return { entry, staging, names }
}

const bundles = [
  bundle(entry, 'node'),
  // `enclave/client`, a front end's entry: a contract and the typed client. Built for the browser,
  // so a node builtin reached from it fails the build here rather than in a front end's bundler.
  bundle(join(distSrc, 'client', 'index.js'), 'browser'),
]

// A walk of its own: readdirSync's `recursive` needs Node 20.1, engines admits 20.0.
function removeJs(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) removeJs(path)
    else if (/\.js(\.map)?$/.test(entry.name) && !bundles.some(({ staging }) => path === staging || path === `${staging}.map`)) rmSync(path)
  }
}
removeJs(distSrc)
for (const { entry: file, staging, names } of bundles) {
  renameSync(staging, file)
  renameSync(`${staging}.map`, `${file}.map`)
  const base = file.slice(file.lastIndexOf('/') + 1)
  const text = readFileSync(file, 'utf8').replace(`//# sourceMappingURL=${base.replace(/\.js$/, '.bundle.js')}.map`, `//# sourceMappingURL=${base}.map`)
  writeFileSync(file, text)
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'))
  map.file = base
  // Anything esbuild took from node_modules would be a second copy of a package: fail rather than ship it.
  const foreign = map.sources.filter((source) => !/^(\.\.\/)+src\//.test(source))
  if (foreign.length > 0) throw new Error(`bundle-package: the map has sources outside src (a package inlined, or tsc wrote no source maps): ${foreign.join(', ')}`)
  writeFileSync(`${file}.map`, JSON.stringify(map))
  // On stderr: `npm pack --json` prints its JSON on stdout, after the prepare script's output.
  console.error(`bundle-package: ${file.slice(root.length + 1)} ${(text.length / 1024).toFixed(0)} kB (${map.sources.length} sources), ${names.length} named exports`)
}
