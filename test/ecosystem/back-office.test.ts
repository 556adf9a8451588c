// docs/recipes-back-office.md over real HTTP: a back-office with its sessions in a real redis-server,
// logged in through a form (CSRF token in the body) with supertest's agent keeping the cookie.
import { expect } from 'chai'
import Redis from 'ioredis'
import request from 'supertest'
import { createApp, type Scope } from '../../src'
import { appOptions, backOfficeModule } from './back-office/app'
import { fixture } from './helpers'
import { startRedis, stop, type Child } from './redis/processes'

function csrfFrom(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html)
  expect(match, 'the page carries a CSRF token').to.not.equal(null)
  return match![1]
}

describe('back-office: sessions in Redis, CSRF, roles, forms, imports, exports (docs/recipes-back-office.md)', function () {
  this.timeout(30_000)
  let redisServer: Child | undefined
  let redis: Redis
  let app: Scope

  async function logIn(username: string, password: string) {
    const agent = request.agent(app.server)
    const page = await agent.get('/login').set('accept', 'text/html').expect(200)
    await agent.post('/login').type('form').send({ username, password, _csrf: csrfFrom(page.text) }).expect(302).expect('location', '/customers')
    return agent
  }
  async function pageToken(agent: ReturnType<typeof request.agent>): Promise<string> {
    return csrfFrom((await agent.get('/customers').set('accept', 'text/html').expect(200)).text)
  }

  before(async () => {
    const started = await startRedis()
    redisServer = started.child
    const url = `redis://127.0.0.1:${started.port}`
    redis = new Redis(url, { maxRetriesPerRequest: 1 })
    app = await createApp(backOfficeModule(url, fixture('back-office-views')), { ...appOptions, logger: { level: 'silent' } })
  })
  after(async () => {
    await app?.close()
    await redis?.quit()
    await stop(redisServer)
  })

  it('keeps the session in Redis under the signed cookie, and logout deletes it', async () => {
    const agent = await logIn('ada', 'ada-secret')
    const keys = await redis.keys('sess:*')
    expect(keys).to.have.length.at.least(1)
    const stored = await Promise.all(keys.map(async (key) => JSON.parse((await redis.get(key))!) as { user?: { name: string } }))
    expect(stored.some((s) => s.user?.name === 'ada')).to.equal(true)
    await agent.get('/customers').expect(200)
    const token = await pageToken(agent)
    await agent.post('/logout').type('form').send({ _csrf: token }).expect(302).expect('location', '/login')
    await agent.get('/customers').expect(401)
    const after = await Promise.all((await redis.keys('sess:*')).map(async (key) => JSON.parse((await redis.get(key))!) as { user?: { name: string } }))
    expect(after.some((s) => s.user?.name === 'ada')).to.equal(false)
  })

  it('a wrong password flashes an error on the login page, once', async () => {
    const agent = request.agent(app.server)
    const page = await agent.get('/login').set('accept', 'text/html').expect(200)
    await agent.post('/login').type('form').send({ username: 'ada', password: 'nope', _csrf: csrfFrom(page.text) }).expect(302).expect('location', '/login')
    expect((await agent.get('/login').set('accept', 'text/html').expect(200)).text).to.contain('Unknown user or wrong password')
    expect((await agent.get('/login').set('accept', 'text/html').expect(200)).text).to.not.contain('Unknown user or wrong password')
  })

  it('sends a browser without a session to /login, and answers an API caller 401 in JSON', async () => {
    await request(app.server).get('/customers').set('accept', 'text/html').expect(302).expect('location', '/login')
    const res = await request(app.server).get('/customers').expect(401)
    expect(res.body).to.deep.equal({ statusCode: 401, error: 'Unauthorized', message: 'log in first' })
  })

  it('refuses a form post without the CSRF token, and one whose session has no CSRF secret yet', async () => {
    const agent = await logIn('ada', 'ada-secret')
    const fresh = await agent.post('/customers').type('form').send({ name: 'New', email: 'n@example.test', status: 'active' }).expect(403)
    expect(fresh.body.code).to.equal('FST_CSRF_MISSING_SECRET')           // regenerate() at login dropped the secret
    await pageToken(agent)
    const missing = await agent.post('/customers').type('form').send({ name: 'New', email: 'n@example.test', status: 'active' }).expect(403)
    expect(missing.body.code).to.equal('FST_CSRF_INVALID_TOKEN')
  })

  it('filters from the query string: one checkbox or several, booleans, dates, sorting, pages', async () => {
    const agent = await logIn('vic', 'vic-secret')
    const several = await agent.get('/customers?status=active&status=trial&vip=false&sort=name&order=desc&page=2&perPage=5').expect(200)
    expect(several.body.page).to.equal(2)
    expect(several.body.items).to.have.length(5)
    for (const row of several.body.items) { expect(row.status).to.not.equal('churned'); expect(row.vip).to.equal(false) }
    const names = several.body.items.map((row: { name: string }) => row.name)
    expect(names).to.deep.equal([...names].sort().reverse())
    const one = await agent.get('/customers?status=churned&perPage=100').expect(200)
    expect(one.body.total).to.equal(15)
    const since = await agent.get('/customers?since=2026-02-01&perPage=100').expect(200)
    expect(since.body.items.every((row: { createdAt: string }) => row.createdAt >= '2026-02-01')).to.equal(true)
    const bad = await agent.get('/customers?since=yesterday').expect(400)
    expect(bad.body.message).to.equal('querystring/since should match format "date"')
    const html = await agent.get('/customers?page=0').set('accept', 'text/html').expect(400).expect('content-type', /text\/html/)
    expect(html.text).to.contain('querystring/page should be &gt;= 1')
  })

  it('guards by role: a viewer reads but cannot post, delete or read the audit log (403 page or JSON)', async () => {
    const agent = await logIn('vic', 'vic-secret')
    const token = await pageToken(agent)
    const page = await agent.post('/customers').set('accept', 'text/html').type('form')
      .send({ name: 'New', email: 'n@example.test', status: 'active', _csrf: token }).expect(403).expect('content-type', /text\/html/)
    expect(page.text).to.contain('Forbidden resource')
    await agent.post('/customers/1/delete').type('form').send({ _csrf: token }).expect(403)
    expect((await agent.get('/audit').expect(403)).body.code).to.equal('ENC_ERR_GUARD_DENIED')
  })

  it('creates from a form post (checkbox value "true"), redirects with a flash, and audits who did it', async () => {
    const agent = await logIn('bob', 'bob-secret')
    const token = await pageToken(agent)
    await agent.post('/customers').set('accept', 'text/html').type('form')
      .send({ name: 'Formy', email: 'f@example.test', status: 'trial', vip: 'true', _csrf: token }).expect(302).expect('location', '/customers')
    expect((await agent.get('/customers').set('accept', 'text/html').expect(200)).text).to.contain('Created Formy')
    const onBox = await agent.post('/customers').type('form').send({ name: 'Formy', email: 'f@example.test', status: 'trial', vip: 'on', _csrf: token }).expect(400)
    expect(onBox.body.message).to.equal('body/vip should be boolean')
    const admin = await logIn('ada', 'ada-secret')
    const audit = await admin.get('/audit').expect(200)
    expect(audit.body.some((entry: { user: string; method: string; url: string; status: number }) =>
      entry.user === 'bob' && entry.method === 'POST' && entry.url === '/customers' && entry.status === 302)).to.equal(true)
    expect(audit.body.some((entry: { status: number }) => entry.status >= 400)).to.equal(false)
  })

  it('imports a CSV upload row by row and reports the bad rows by line', async () => {
    const agent = await logIn('ada', 'ada-secret')
    const token = await pageToken(agent)
    const before = (await agent.get('/customers?perPage=1').expect(200)).body.total as number
    const csv = 'name,email,status,vip\r\nGood One,g1@example.test,active,true\r\nX,bad,unknown,maybe\r\n"Quoted, Inc",q@example.test,trial,\r\n'
    const res = await agent.post('/customers/import').set('csrf-token', token)
      .attach('file', Buffer.from(csv), { filename: 'c.csv', contentType: 'text/csv' }).expect(200)
    expect(res.body).to.deep.equal({ imported: 2, rejected: [{ line: 3, errors: [
      'name: at least 2 characters', 'email: "bad" is not an email', 'status: "unknown" is not one of active, churned, trial', 'vip: true or false'] }] })
    expect((await agent.get('/customers?perPage=1').expect(200)).body.total).to.equal(before + 2)
    const html = await agent.post('/customers/import').set('csrf-token', token).set('accept', 'text/html')
      .attach('file', Buffer.from('name,email\r\n'), { filename: 'c.csv', contentType: 'text/csv' }).expect(200)
    expect(html.text).to.contain('line 1: header lacks status')
    // A header refused after a blank first line: the rows under it are not read against it.
    const late = await agent.post('/customers/import').set('csrf-token', token)
      .attach('file', Buffer.from('\r\nemail,status\r\nx@example.test,active\r\n'), { filename: 'c.csv', contentType: 'text/csv' }).expect(200)
    expect(late.body).to.deep.equal({ imported: 0, rejected: [{ line: 2, errors: ['header lacks name'] }] })
  })

  it('imports nothing from a CSV over limits.fileSize: 413, where the cut stream alone would have imported its first rows', async () => {
    const agent = await logIn('ada', 'ada-secret')
    const token = await pageToken(agent)
    const before = (await agent.get('/customers?perPage=1').expect(200)).body.total as number
    const big = 'name,email,status\r\n' + 'Somebody,s@example.test,active\r\n'.repeat(40_000)    // 1.28 MB, over the 1 MiB limit
    const res = await agent.post('/customers/import').set('csrf-token', token)
      .attach('file', Buffer.from(big), { filename: 'big.csv', contentType: 'text/csv' }).expect(413)
    expect(res.body).to.deep.equal({ statusCode: 413, error: 'Payload Too Large', message: 'the file is over 1048576 bytes: nothing was imported' })
    expect((await agent.get('/customers?perPage=1').expect(200)).body.total).to.equal(before)
  })

  it('exports the filtered list as CSV (formula-safe) and as a streamed JSON download', async () => {
    const agent = await logIn('ada', 'ada-secret')
    const token = await pageToken(agent)
    await agent.post('/customers').type('form').send({ name: '=HYPERLINK("x")', email: 'h@example.test', status: 'churned', _csrf: token }).expect(201)
    const csv = await agent.get('/customers/export.csv?status=churned').expect(200).expect('content-type', 'text/csv; charset=utf-8')
    expect(csv.headers['content-disposition']).to.equal('attachment; filename="customers.csv"')
    const lines = csv.text.trim().split('\r\n')
    expect(lines[0]).to.equal('id,name,email,status,vip,createdAt')
    expect(lines.slice(1).every((line) => line.includes(',churned,'))).to.equal(true)
    expect(lines.some((line) => line.includes(`"'=HYPERLINK(""x"")"`))).to.equal(true)
    const json = await agent.get('/customers/export.json?status=active&status=trial').expect(200).expect('content-type', 'application/json; charset=utf-8')
    expect(json.headers['transfer-encoding']).to.equal('chunked')                   // streamed, never one buffered string
    expect(json.body.every((row: { status: string }) => row.status !== 'churned')).to.equal(true)
  })

  it('answers 404 and 500 as HTML pages for browsers and JSON for API callers, the 500 hiding its cause', async () => {
    const html404 = await request(app.server).get('/nope').set('accept', 'text/html,application/xhtml+xml').expect(404).expect('content-type', /text\/html/)
    expect(html404.text).to.contain('No page at /nope')
    expect((await request(app.server).get('/nope').expect(404)).body).to.deep.equal({ statusCode: 404, error: 'Not Found', message: 'Route GET:/nope not found' })
    const agent = await logIn('vic', 'vic-secret')
    const html500 = await agent.get('/customers/boom').set('accept', 'text/html').expect(500).expect('content-type', /text\/html/)
    expect(html500.text).to.contain('Something went wrong on our side').and.not.contain('hunter2')
    expect((await agent.get('/customers/boom').expect(500)).body).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
  })
})
