import { expect } from 'chai'
import request from 'supertest'
import { lift, type Scope } from '../../src/runtime'
import { build } from './helpers'

// What these tests decorate on a scope: Scope has no catch-all (an undeclared name does not compile).
declare module '../../src/runtime' {
  interface ScopeDecorations { probe?: unknown }
}

/**
 * One store under test: `declare` puts something in a scope, `probe` adds what the check needs
 * (usually a route at `/probe`), `check` asks the server whether the scope at `prefix` sees it.
 */
interface Store {
  declare(scope: Scope): void
  probe(scope: Scope): void
  check(app: Scope, prefix: string): Promise<boolean>
  /** Also compare the scope's own has*() answer after boot. */
  has?(scope: Scope): boolean
}

type Place = 'parent' | 'own' | 'child' | 'grandchild' | 'sibling' | 'liftedInto' | 'liftedIntoChild' | 'liftedIntoParent'

/** Spec §3.3 rules 2, 3, 5 and 6 in one table. */
const expected: Record<Place, boolean> = {
  parent: false, own: true, child: true, grandchild: true, sibling: false,
  liftedInto: true, liftedIntoChild: true, liftedIntoParent: false,
}

/**
 * The tree:
 *   root (/)                      -> parent
 *     A (/a)      declares        -> own
 *       B (/a/b)                  -> child
 *         C (/a/b/c)              -> grandchild
 *     S (/s)                      -> sibling
 *     P (/p)      probe declared before the lifted plugin -> liftedInto
 *       Q (/p/q)  registered before the lifted plugin too -> liftedIntoChild
 *       lift(declares)
 * `liftedIntoParent` is the root again, asked about P's lifted declaration: it never sees it.
 */
async function matrix(store: Store): Promise<Record<Place, boolean>> {
  const scopes: Partial<Record<Place, Scope>> = {}
  const app = await build((root) => {
    scopes.parent = root
    store.probe(root)
    root.register(async (a) => {
      scopes.own = a
      store.declare(a)
      store.probe(a)
      a.register(async (b) => {
        scopes.child = b
        store.probe(b)
        b.register(async (c) => { scopes.grandchild = c; store.probe(c) }, { prefix: '/c' })
      }, { prefix: '/b' })
    }, { prefix: '/a' })
    root.register(async (s) => { scopes.sibling = s; store.probe(s) }, { prefix: '/s' })
    root.register(async (p) => {
      scopes.liftedInto = p
      store.probe(p)
      p.register(async (q) => { scopes.liftedIntoChild = q; store.probe(q) }, { prefix: '/q' })
      p.register(lift(async (same: Scope) => { store.declare(same) }))
    }, { prefix: '/p' })
  })
  const prefixes: Record<Place, string> = {
    parent: '', own: '/a', child: '/a/b', grandchild: '/a/b/c', sibling: '/s',
    liftedInto: '/p', liftedIntoChild: '/p/q', liftedIntoParent: '',
  }
  const seen = {} as Record<Place, boolean>
  for (const place of Object.keys(prefixes) as Place[]) {
    seen[place] = await store.check(app, prefixes[place])
    const scope = place === 'liftedIntoParent' ? scopes.parent : scopes[place]
    if (store.has !== undefined) expect(store.has(scope as Scope), `has*() in ${place}`).to.equal(seen[place])
  }
  return seen
}

/** A GET /probe route answering `{ seen }`, where `read` says whether the store is visible. */
function probeRoute(read: (this: Scope, req: any, reply: any) => unknown) {
  return (scope: Scope): void => {
    scope.get('/probe', function (this: Scope, req, reply) { return { seen: read.call(this, req, reply) ?? null } })
  }
}

async function seenAt(app: Scope, prefix: string): Promise<boolean> {
  const res = await request(app.server).get(`${prefix}/probe`).expect(200)
  return res.body.seen === 'yes'
}

describe('runtime: §3.3 visibility matrix (own, child, grandchild, parent, sibling, lifted)', () => {
  it('§3.3.6 request decorators; reading one where it is not visible gives undefined', async () => {
    const seen = await matrix({
      declare: (s) => s.decorateRequest('probe' as string, 'yes'),
      probe: probeRoute((req) => {
        // not visible: undefined, not null, and not an error (spec §7)
        if (req.probe === undefined) expect('probe' in req).to.equal(false)
        return req.probe
      }),
      check: seenAt,
      has: (s) => s.hasRequestDecorator('probe'),
    })
    expect(seen).to.deep.equal(expected)
  })

  it('reply decorators', async () => {
    const seen = await matrix({
      declare: (s) => s.decorateReply('probe' as string, 'yes'),
      probe: probeRoute((_req, reply) => reply.probe),
      check: seenAt,
      has: (s) => s.hasReplyDecorator('probe'),
    })
    expect(seen).to.deep.equal(expected)
  })

  it('instance decorators (decorate), read as `this` in a handler', async () => {
    const seen = await matrix({
      declare: (s) => s.decorate('probe', 'yes'),
      probe: probeRoute(function () { return this.probe }),
      check: seenAt,
      has: (s) => s.hasDecorator('probe'),
    })
    expect(seen).to.deep.equal(expected)
  })

  it('instance decorators, read on the scope object itself after boot', async () => {
    const scopes: Scope[] = []
    const seen = await matrix({
      declare: (s) => s.decorate('probe', 'yes'),
      probe: (s) => { scopes.push(s) },
      check: async () => true,
    })
    expect(seen).to.deep.equal({ ...expected, parent: true, sibling: true, liftedIntoParent: true })
    // the probes ran in order root, A, B, C, S, P, Q
    expect(scopes.map((s) => s.probe ?? null)).to.deep.equal([null, 'yes', 'yes', 'yes', null, 'yes', 'yes'])
  })

  const requestHooks = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend'] as const
  for (const name of requestHooks) {
    it(`${name} hooks`, async () => {
      const seen = await matrix({
        declare: (s) => s.addHook(name as 'onRequest', async (_req, reply) => { reply.header('x-probe', 'yes') }),
        probe: probeRoute(() => 'route'),
        check: async (app, prefix) => (await request(app.server).get(`${prefix}/probe`).expect(200)).headers['x-probe'] === 'yes',
      })
      expect(seen).to.deep.equal(expected)
    })
  }

  it('onError hooks', async () => {
    const seen = await matrix({
      declare: (s) => s.addHook('onError', async (_req, reply) => { reply.header('x-probe', 'yes') }),
      probe: (s) => { s.get('/probe', async () => { throw new Error('probe') }) },
      check: async (app, prefix) => (await request(app.server).get(`${prefix}/probe`).expect(500)).headers['x-probe'] === 'yes',
    })
    expect(seen).to.deep.equal(expected)
  })

  it('onResponse hooks', async () => {
    const responded = new Set<string>()
    const finished = new Map<string, () => void>()
    const seen = await matrix({
      declare: (s) => s.addHook('onResponse', async (req) => { responded.add(req.url) }),
      // A route-level onResponse hook runs after every scope's: when it fires, the probe's has run.
      probe: (s) => { s.get('/probe', { onResponse: async (req) => { finished.get(req.url)?.() } }, async () => 'ok') },
      check: async (app, prefix) => {
        const url = `${prefix}/probe`
        const done = new Promise<void>((resolve) => finished.set(url, resolve))
        await request(app.server).get(url).expect(200)
        await done
        return responded.has(url)
      },
    })
    expect(seen).to.deep.equal(expected)
  })

  it('error handlers', async () => {
    const seen = await matrix({
      declare: (s) => s.setErrorHandler(async (_error, _req, reply) => { reply.code(418).send({ seen: 'yes' }) }),
      probe: (s) => { s.get('/probe', async () => { throw new Error('probe') }) },
      check: async (app, prefix) => (await request(app.server).get(`${prefix}/probe`)).status === 418,
    })
    expect(seen).to.deep.equal(expected)
  })

  it('not-found handlers (by the prefix of the scope that set them)', async () => {
    const seen = await matrix({
      declare: (s) => s.setNotFoundHandler(async (_req, reply) => { reply.code(404).send({ seen: 'yes' }) }),
      probe: () => undefined,
      check: async (app, prefix) => {
        const res = await request(app.server).get(`${prefix}/missing`).expect(404)
        return res.body.seen === 'yes'
      },
    })
    expect(seen).to.deep.equal(expected)
  })

  it('content-type parsers', async () => {
    const seen = await matrix({
      declare: (s) => s.addContentTypeParser('application/x-probe', (_req, body) => `parsed:${String(body)}`),
      probe: (s) => { s.post('/probe', async (req) => ({ body: req.body })) },
      check: async (app, prefix) => {
        const res = await request(app.server).post(`${prefix}/probe`).set('content-type', 'application/x-probe').send('abc')
        if (res.status === 415) return false
        expect(res.status).to.equal(200)
        expect(res.body).to.deep.equal({ body: 'parsed:abc' })
        return true
      },
      has: (s) => s.hasContentTypeParser('application/x-probe'),
    })
    expect(seen).to.deep.equal(expected)
  })
})
