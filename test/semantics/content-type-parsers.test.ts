// Issue 12 §2 "Declarations, parsers and routing": which content-type parser a request meets and
// in which form it is called, as Fastify 3.27.4's lib/contentTypeParser.js decides it.
import { spawnSync } from 'node:child_process'
import { PassThrough, type Readable } from 'node:stream'
import { expect } from 'chai'
import type { Request, Scope } from '../../src'
import { build, server, thrown } from '../runtime/helpers'

const post = (app: Scope, type: string, payload: string, url = '/') => app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload })
const echo = (scope: Scope, url = '/'): void => { scope.post(url, async (req: Request) => ({ body: req.body ?? null })) }
const tag = (name: string) => (_req: Request, body: string | Buffer) => `${name}:${String(body)}`
const bodyOf = async (app: Scope, type: string, payload = 'x', url = '/'): Promise<unknown> => ((await post(app, type, payload, url)).json() as { body: unknown }).body

async function readAll(stream: Readable): Promise<string> {
  let text = ''
  for await (const chunk of stream) text += String(chunk)
  return text
}

describe('semantics: content-type parsers (issue 12 §2)', () => {
  describe("Fastify 3's deprecated async (payload) form", () => {
    it('is handed the payload stream itself, and may resolve that stream as the body', async () => {
      let given: unknown
      const app = await build((root) => {
        root.addContentTypeParser('application/jsoff', async (payload: Readable) => { given = payload; return payload })
        root.post('/', (req, reply) => reply.send(req.body))
      })
      const res = await post(app, 'application/jsoff', '{"hello":"world"}')
      expect(res.statusCode).to.equal(200)
      expect(res.body).to.equal('{"hello":"world"}')
      expect((given as { headers?: Record<string, string> }).headers?.['content-type']).to.equal('application/jsoff')
    })

    it("is handed a preParsing hook's replacement stream instead of the socket's", async () => {
      const app = await build((root) => {
        root.addHook('preParsing', (async (_req: Request, _reply: unknown, payload: Readable) => {
          const upper = new PassThrough()
          payload.on('data', (chunk: Buffer) => upper.write(String(chunk).toUpperCase()))
          payload.on('end', () => upper.end())
          return upper
        }) as never)
        root.addContentTypeParser('text/x-shout', async (payload: Readable) => readAll(payload))
        echo(root)
      })
      expect(await bodyOf(app, 'text/x-shout', 'quiet')).to.equal('QUIET')
    })

    it('emits the FastifyDeprecation warning FSTDEP003 once per process, however many such parsers are declared', () => {
      // A child process: the warning is once per process, so this one may have emitted it already.
      const script = `
        const warnings = []
        process.on('warning', (w) => warnings.push(w.name + ':' + w.code))
        const { createServer } = require(${JSON.stringify(require.resolve('../../src'))})
        const app = createServer()
        app.addContentTypeParser('text/a', async (payload) => payload)
        app.addContentTypeParser('text/b', async (payload) => payload)
        app.addContentTypeParser('text/c', async (request, body) => body)
        setImmediate(() => process.stdout.write(JSON.stringify(warnings)))`
      const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 })
      expect(JSON.parse(child.stdout)).to.deep.equal(['FastifyDeprecation:FSTDEP003'])
    })
  })

  describe('RegExp content types', () => {
    it('are tested against the Content-Type as sent: its case kept, its parameters left out', async () => {
      const app = await build((root) => {
        root.addContentTypeParser(/\+myExtension$/, tag('ext'))
        echo(root)
      })
      expect(await bodyOf(app, 'application/+myExtension')).to.equal('ext:x')
      expect(await bodyOf(app, 'application/+myExtension; charset=utf-8')).to.equal('ext:x')
      expect((await post(app, 'application/+myextension', 'x')).statusCode).to.equal(415)
    })

    it('also see a Content-Type that is no type/subtype media type', async () => {
      const app = await build((root) => {
        root.addContentTypeParser(/.*\+json$/, tag('re'))
        echo(root)
      })
      expect(await bodyOf(app, 'weird-content-type+json')).to.equal('re:x')
    })

    it('lose to an exact string type, whichever was declared first', async () => {
      const app = await build((root) => {
        root.addContentTypeParser(/^application\/.*/, tag('re'))
        root.addContentTypeParser('application/x-exact', tag('exact'))
        echo(root)
      })
      expect(await bodyOf(app, 'application/x-exact')).to.equal('exact:x')
      expect(await bodyOf(app, 'application/x-other')).to.equal('re:x')
      expect(await bodyOf(app, 'application/json', '{"a":1}')).to.deep.equal({ a: 1 })
    })

    it('win over the JSON fallback for application/*+json, and over the * catch-all', async () => {
      const app = await build((root) => {
        root.addContentTypeParser('*', tag('any'))
        root.addContentTypeParser(/\+json$/, tag('re'))
        echo(root)
      })
      expect(await bodyOf(app, 'application/vnd.test+json', '{}')).to.equal('re:{}')
      expect(await bodyOf(app, 'text/x-unknown')).to.equal('any:x')
    })

    it('are tried latest declared first, a child scope before its ancestors', async () => {
      const app = await build((root) => {
        root.addContentTypeParser(/^image\//, tag('first'))
        root.addContentTypeParser(/^image\/png/, tag('second'))
        root.register(async (child) => {
          child.addContentTypeParser(/png$/, tag('child'))
          echo(child, '/child')
        })
        echo(root)
      })
      expect(await bodyOf(app, 'image/png')).to.equal('second:x')
      expect(await bodyOf(app, 'image/gif')).to.equal('first:x')
      expect(await bodyOf(app, 'image/png', 'x', '/child')).to.equal('child:x')
    })

    it('with the g flag match every request, not every other one', async () => {
      const app = await build((root) => {
        root.addContentTypeParser(/^text\/x-g/g, tag('g'))
        echo(root)
      })
      for (let i = 0; i < 3; i++) expect(await bodyOf(app, 'text/x-g')).to.equal('g:x')
    })

    it('are known to hasContentTypeParser and removed by removeContentTypeParser', async () => {
      const app = await build((root) => {
        root.addContentTypeParser(/^image\/.*/, tag('img'))
        expect(root.hasContentTypeParser(/^image\/.*/)).to.equal(true)
        expect(root.hasContentTypeParser(/^image\/.+\+xml/)).to.equal(false)
        root.register(async (child) => {
          child.removeContentTypeParser(/^image\/.*/)
          expect(child.hasContentTypeParser(/^image\/.*/)).to.equal(false)
          echo(child, '/child')
        })
        echo(root)
      })
      expect(await bodyOf(app, 'image/png')).to.equal('img:x')
      expect((await post(app, 'image/png', 'x', '/child')).statusCode).to.equal(415)
    })
  })

  describe('redeclaring a parser', () => {
    it('replaces a built-in (JSON, text) parser once; a second declaration is refused, also in a child scope', async () => {
      const root = server()
      root.addContentTypeParser('application/json', tag('json'))
      root.addContentTypeParser('text/plain', tag('text'))
      expect(thrown(() => root.addContentTypeParser('application/json', tag('again'))).code).to.equal('ENC_ERR_CTP_ALREADY_PRESENT')
      expect(thrown(() => root.addContentTypeParser('text/plain', tag('again'))).code).to.equal('ENC_ERR_CTP_ALREADY_PRESENT')
      let childError: { code?: string } | undefined
      root.register(async (child) => { childError = thrown(() => child.addContentTypeParser('application/json', tag('child'))) })
      echo(root)
      await root.ready()
      expect(childError?.code).to.equal('ENC_ERR_CTP_ALREADY_PRESENT')
      expect(await bodyOf(root, 'application/json', '{}')).to.equal('json:{}')
    })

    it('a child scope may replace a built-in parser its ancestors kept; after removeAllContentTypeParsers, once', async () => {
      const app = await build((root) => {
        root.register(async (child) => {
          child.addContentTypeParser('application/json', tag('child'))
          echo(child, '/child')
        })
        root.register(async (bare) => {
          bare.removeAllContentTypeParsers()
          bare.addContentTypeParser('text/plain', tag('bare'))
          expect(thrown(() => bare.addContentTypeParser('text/plain', tag('again'))).code).to.equal('ENC_ERR_CTP_ALREADY_PRESENT')
          echo(bare, '/bare')
        })
        echo(root)
      })
      expect(await bodyOf(app, 'application/json', '{}', '/child')).to.equal('child:{}')
      expect(await bodyOf(app, 'text/plain', 'x', '/bare')).to.equal('bare:x')
      expect(await bodyOf(app, 'application/json', '{"a":1}')).to.deep.equal({ a: 1 })
    })

    it("'*' may be declared again: the later catch-all replaces the earlier one in its scope and below", async () => {
      const app = await build((root) => {
        root.addContentTypeParser('*', tag('first'))
        root.addContentTypeParser('*', tag('second'))
        root.register(async (child) => {
          child.addContentTypeParser('*', tag('child'))
          echo(child, '/child')
        })
        echo(root)
      })
      expect(await bodyOf(app, 'text/x-unknown')).to.equal('second:x')
      expect(await bodyOf(app, 'text/x-unknown', 'x', '/child')).to.equal('child:x')
    })
  })

  it('addContentTypeParser(type, null, parser) reads null options as none, as Fastify does', async () => {
    const app = await build((root) => {
      root.addContentTypeParser('text/csv', null as never, tag('csv'))
      echo(root)
    })
    expect(await bodyOf(app, 'text/csv')).to.equal('csv:x')
  })

  it('getDefaultJsonParser refuses a misspelt poisoning action (secure-json-parse would ignore it)', () => {
    const error = thrown(() => server().getDefaultJsonParser('erorr' as never))
    expect(error.code).to.equal('ENC_ERR_CTP_INVALID')
    expect(error.message).to.contain("onProtoPoisoning is 'erorr'")
  })
})
