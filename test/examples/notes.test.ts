import { expect } from 'chai'
import request from 'supertest'
import type { App, OpenApiDocument } from '../../src'
import { buildNotesApp } from '../../examples/notes/app'

// The typed-tour notes service (docs/typed-tour.md, "Typed tour"), driven over HTTP as a client would.
describe('examples/notes: the typed-tour notes service', () => {
  const token = 'tour-token'
  const auth = { authorization: `Bearer ${token}` }
  let app: App
  beforeEach(async () => { app = await buildNotesApp([token]) })
  afterEach(() => app.close())

  const addUser = async (name: string): Promise<number> =>
    (await request(app.server).post('/users').set(auth).send({ name }).expect(201)).body.id

  it('creates a user and reads it back by id', async () => {
    const created = await request(app.server).post('/users').set(auth).send({ name: 'Ada' }).expect(201)
    expect(created.body).to.deep.equal({ id: 1, name: 'Ada' })
    await request(app.server).get('/users/1').set(auth).expect(200, { id: 1, name: 'Ada' })
  })

  it('creates a note (tags default to []) and reads it back by id', async () => {
    const authorId = await addUser('Ada')
    const created = await request(app.server).post('/notes').set(auth).send({ authorId, title: 'Engines' }).expect(201)
    expect(created.body).to.deep.equal({ id: 1, authorId, title: 'Engines', tags: [] })
    await request(app.server).get('/notes/1').set(auth).expect(200, { id: 1, authorId, title: 'Engines', tags: [] })
  })

  it('lists notes, filtered by author and tag from the query string', async () => {
    const ada = await addUser('Ada')
    const alan = await addUser('Alan')
    await request(app.server).post('/notes').set(auth).send({ authorId: ada, title: 'a', tags: ['math'] }).expect(201)
    await request(app.server).post('/notes').set(auth).send({ authorId: alan, title: 'b', tags: ['math', 'code'] }).expect(201)
    await request(app.server).post('/notes').set(auth).send({ authorId: alan, title: 'c' }).expect(201)
    const all = await request(app.server).get('/notes').set(auth).expect(200)
    expect(all.body.items.map((n: { title: string }) => n.title)).to.deep.equal(['a', 'b', 'c'])
    const filtered = await request(app.server).get(`/notes?authorId=${alan}&tag=math`).set(auth).expect(200)
    expect(filtered.body).to.deep.equal({ items: [{ id: 2, authorId: alan, title: 'b', tags: ['math', 'code'] }] })
  })

  it('answers 401 with the bearer challenge on every route when the token is missing or wrong', async () => {
    for (const [method, url] of [['get', '/notes'], ['post', '/notes'], ['get', '/users/1'], ['post', '/users']] as const) {
      const res = await request(app.server)[method](url).send({}).expect(401)
      expect(res.headers['www-authenticate']).to.equal('Bearer')
      expect(res.body).to.include({ statusCode: 401, code: 'ENC_ERR_AUTH_UNAUTHORIZED', error: 'Unauthorized' })
    }
    await request(app.server).get('/notes').set({ authorization: 'Bearer nope' }).expect(401)
  })

  it('answers 400 for a body the schema class refuses, before the handler runs', async () => {
    await request(app.server).post('/notes').set(auth).send({ authorId: 1 })
      .expect(400, { statusCode: 400, error: 'Bad Request', message: "body should have required property 'title'" })
    await request(app.server).post('/notes').set(auth).send({ authorId: 'one', title: 'x' })
      .expect(400, { statusCode: 400, error: 'Bad Request', message: 'body/authorId should be integer' })
    await request(app.server).post('/users').set(auth).send({ name: '' })
      .expect(400, { statusCode: 400, error: 'Bad Request', message: 'body/name should NOT be shorter than 1 characters' })
    await request(app.server).get('/notes/abc').set(auth)
      .expect(400, { statusCode: 400, error: 'Bad Request', message: 'params/id should be integer' })
    expect((await request(app.server).get('/notes').set(auth).expect(200)).body).to.deep.equal({ items: [] })
  })

  it("answers 422 from NotesModule's error handler for a note whose author does not exist", async () => {
    await request(app.server).post('/notes').set(auth).send({ authorId: 7, title: 'orphan' }).expect(422, {
      statusCode: 422, code: 'NOTES_UNKNOWN_AUTHOR', error: 'Unprocessable Entity', message: 'No user with id 7 can author a note',
    })
    expect((await request(app.server).get('/notes').set(auth).expect(200)).body).to.deep.equal({ items: [] })
  })

  it('answers 404 for an unknown note, an unknown user and an unknown route (the 422 handler lets them through)', async () => {
    await request(app.server).get('/notes/9').set(auth).expect(404, { statusCode: 404, error: 'Not Found', message: 'No note with id 9' })
    await request(app.server).get('/users/9').set(auth).expect(404, { statusCode: 404, error: 'Not Found', message: 'No user with id 9' })
    const res = await request(app.server).get('/nowhere').set(auth).expect(404)
    expect(res.body).to.include({ statusCode: 404, error: 'Not Found' })
  })

  it('shares one repository between the modules: a user created in one is an author in the other', async () => {
    const authorId = await addUser('Grace')
    await request(app.server).post('/notes').set(auth).send({ authorId, title: 'COBOL' }).expect(201)
    expect((await request(app.server).get(`/notes?authorId=${authorId}`).set(auth).expect(200)).body.items).to.have.length(1)
  })

  it('serves an OpenAPI document with both modules as tags and the note schemas as components', async () => {
    const document = app.openapi({ title: 'Notes', version: '1.0.0' }) as OpenApiDocument & {
      components: { schemas: Record<string, unknown> }; tags: Array<{ name: string }>
    }
    expect(document.components.schemas).to.include.keys('user', 'note')
    expect(document.tags.map((t) => t.name)).to.include.members(['AppModule > UsersModule', 'AppModule > NotesModule'])
    expect(Object.keys(document.paths)).to.include.members(['/users', '/users/{id}', '/notes', '/notes/{id}'])
    expect(document.paths['/notes'].post).to.have.nested.property('responses.401')
  })

  it('documents, as docs/typed-tour.md, "Typed tour" says, the framework answers on every operation (404 included) and not the 422 its error handler does not declare', () => {
    const document = app.openapi({ title: 'Notes', version: '1.0.0' }) as OpenApiDocument
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations as Record<string, { responses: Record<string, unknown>; security?: unknown }>)) {
        const statuses = Object.keys(operation.responses)
        const withBody = method === 'post'
        expect(statuses, `${method} ${path}`).to.include.members(['400', '401', '404', '500', ...(withBody ? ['413', '415'] : [])])
        expect(statuses, `${method} ${path}`).to.not.include('422')
        expect(operation.security, `${method} ${path}`).to.deep.equal([{ bearerAuth: [] }])
      }
    }
  })
})
