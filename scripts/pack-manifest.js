// The package.json that ships has no `prepare` script. `prepare` builds dist/ for the installs that
// start from sources (git, file:, `npm pack` itself); a tarball already holds dist/, and npm 11
// warns on every install of a package carrying one ("1 package has install scripts not yet covered
// by allowScripts ... (prepare: npm run build:package)"), asking the user to approve a script that
// never runs for them. npm packs package.json as it is on disk, after `prepare` has run, so:
//   strip    (the last step of `prepare`, only under `npm pack` / `npm publish`): writes the
//            manifest without `prepare` and `postpack`, keeping the original beside it;
//   restore  (`postpack`): puts the original back, byte for byte.
// A pack that dies between the two leaves package.json.before-pack: `restore` (or git) mends it.
'use strict'
const { existsSync, readFileSync, renameSync, writeFileSync } = require('node:fs')
const { join } = require('node:path')

const root = join(__dirname, '..')
const manifest = join(root, 'package.json')
const kept = join(root, 'package.json.before-pack')

function strip() {
  // `prepare` also runs on a plain `npm install` in the repository, where the script must stay.
  if (process.env.npm_command !== 'pack' && process.env.npm_command !== 'publish') return
  const text = readFileSync(manifest, 'utf8')
  const parsed = JSON.parse(text)
  if (parsed.scripts === undefined || parsed.scripts.prepare === undefined) return
  // postpack goes too: it names a file the tarball does not ship. npm runs it from the manifest it
  // read before packing, so the restore still happens.
  delete parsed.scripts.prepare
  delete parsed.scripts.postpack
  writeFileSync(kept, text)
  writeFileSync(manifest, `${JSON.stringify(parsed, null, 2)}\n`)
}

function restore() {
  if (existsSync(kept)) renameSync(kept, manifest)
}

const step = process.argv[2]
if (step === 'strip') strip()
else if (step === 'restore') restore()
else throw new Error(`pack-manifest: give 'strip' or 'restore', got ${String(step)}`)
