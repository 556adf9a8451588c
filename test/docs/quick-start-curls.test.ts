import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import type { App } from '../../src'
import { buildSampleApp } from '../../sample/sample-app'

// The curl lines of README's Quick start and sample/README.md are what a newcomer runs first;
// each says in a comment what comes back ("# 400 {...}", "# {"answer":42}"). This replays them,
// in order, against the sample as `npm start` builds it (API_KEYS unset: the demo key).
const root = join(__dirname, '..', '..', '..')

interface Curl { where: string; method: string; url: string; headers: Record<string, string>; body?: string; said: string }

function curls(file: string, fromHeading?: string): Curl[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n')
  const start = fromHeading ? lines.indexOf(fromHeading) : 0
  const end = fromHeading ? lines.findIndex((line, i) => i > start && line.startsWith('## ')) : lines.length
  const found: Curl[] = []
  let fenced = false
  lines.forEach((line, index) => {
    if (line.startsWith('```')) fenced = !fenced
    if (!fenced || index < start || index >= end) return
    const command = /^curl (.*?)\s*(?:#\s*(.*))?$/.exec(line)
    if (!command) return
    // A long command's comment sits alone on the next line.
    const next = /^\s+#\s*(.*)$/.exec(lines[index + 1] ?? '')
    const said = command[2] ?? next?.[1] ?? ''
    const words = [...command[1].matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2])
    const curl: Curl = { where: `${file}:${index + 1}`, method: 'GET', url: '', headers: {}, said }
    for (let i = 0; i < words.length; i++) {
      if (words[i] === '-s') continue
      else if (words[i] === '-X') curl.method = words[++i]
      else if (words[i] === '-H') { const [name, ...value] = words[++i].split(':'); curl.headers[name.trim()] = value.join(':').trim() }
      else if (words[i] === '-d') { curl.body = words[++i]; if (curl.method === 'GET') curl.method = 'POST' }
      else curl.url = words[i].replace(/^http:\/\/127\.0\.0\.1:3000/, '')
    }
    found.push(curl)
  })
  return found
}

// "# 401 {...}" pins the status and the body ("..." elides, pieces in order); "# {...}" a 200;
// "# 400 some message" the status and a body containing the message; other words only a 2xx.
function mismatch(curl: Curl, status: number, body: string): string | null {
  const stated = /^(\d{3})\b\s*(.*)$/.exec(curl.said)
  const rest = stated ? stated[2] : curl.said
  if (stated ? status !== Number(stated[1]) : status >= 300) return `status ${status}`
  if (rest.startsWith('{')) {
    let at = 0
    for (const piece of rest.slice(0, rest.lastIndexOf('}') + 1).split('...').filter(Boolean)) {
      const found = body.indexOf(piece, at)
      if (found < 0) return `body ${body} lacks ${piece}`
      at = found + piece.length
    }
  } else if (stated && rest !== '' && !body.includes(rest)) return `body ${body} lacks ${rest}`
  return null
}

describe('Docs: the Quick start and sample/README.md curl lines answer what their comments say', () => {
  for (const [file, heading] of [['README.md', '## Quick start'], ['sample/README.md', undefined]] as const) {
    it(`${file}: every curl line, replayed in order against the sample`, async () => {
      const lines = curls(file, heading)
      expect(lines.length).to.be.greaterThan(4)
      const app: App = await buildSampleApp({ keys: ['abc123'], liftGrandchild: false })
      try {
        const wrong: string[] = []
        for (const curl of lines) {
          const res = await app.inject({ method: curl.method as 'GET', url: curl.url, headers: curl.headers, payload: curl.body })
          const problem = mismatch(curl, res.statusCode, res.body)
          if (problem) wrong.push(`${curl.where} (# ${curl.said}): ${problem}`)
        }
        expect(wrong).to.deep.equal([])
      } finally {
        await app.close()
      }
    })
  }
})
