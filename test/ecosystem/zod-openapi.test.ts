// fastify-zod-openapi 5 (community; its README: `setValidatorCompiler(validatorCompiler)`,
// `setSerializerCompiler(serializerCompiler)`, `register(fastifyZodOpenApiPlugin)`, then @fastify/swagger with
// `...fastifyZodOpenApiTransformers`, zod schemas with `.meta()` in routes). Its plugin's onRoute hook marks each
// route's schema; the transformers read the marks to write the OpenAPI document. Compared with Fastify 5 running the
// same plugins: the 400s, the serialized answers and the whole document.
import 'reflect-metadata'
import { expect } from 'chai'
import { z } from 'zod'
import swagger from '@fastify/swagger'
import { fastifyZodOpenApiPlugin, fastifyZodOpenApiTransformers, serializerCompiler, validatorCompiler } from 'fastify-zod-openapi'
import fastify5 from 'fastify5'
import { Body, Module, Params, Post, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { declaredOnBoth, track } from '../support/servers'

const JobId = z.string().min(3).meta({ description: 'Job ID', example: '60002023' })
const NewJob = z.object({ name: z.string().min(1), priority: z.number().int().default(0) }).meta({ id: 'NewJob' })
const Job = z.object({ jobId: JobId, name: z.string(), priority: z.number() })

interface Declarer { setValidatorCompiler: Function; setSerializerCompiler: Function; register: Function; post: Function; get: Function }
async function declareJobs(app: Declarer): Promise<void> {
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  await app.register(fastifyZodOpenApiPlugin)
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'jobs', version: '1.0.0' } }, ...fastifyZodOpenApiTransformers })
  app.post('/jobs/:jobId', { schema: { params: z.object({ jobId: JobId }), body: NewJob, response: { 201: Job } } },
    async (request: { params: { jobId: string }; body: z.output<typeof NewJob> }, reply: { code(n: number): unknown }) => {
      reply.code(201)
      return { jobId: request.params.jobId, ...request.body, secret: 'not for clients' }
    })
}

const requests: Array<{ url: string; payload: object }> = [
  { url: '/jobs/600', payload: { name: 'backup' } },
  { url: '/jobs/600', payload: { name: 'backup', priority: 2 } },
  { url: '/jobs/6', payload: { name: 'backup' } },
  { url: '/jobs/600', payload: { name: '' } },
  { url: '/jobs/600', payload: { priority: 1.5 } },
]

describe('fastify-zod-openapi in Enclave', () => {
  it('validates with zod and serializes through the response schema (unknown fields dropped): the same statuses and bodies as Fastify 5, 400s in Enclave\'s shape', async () => {
    const ours = track((await import('../../src/runtime')).createServer())
    const reference = fastify5()
    try {
      await declareJobs(ours as unknown as Declarer)
      await declareJobs(reference as unknown as Declarer)
      for (const { url, payload } of requests) {
        const a = await ours.inject({ method: 'POST', url, payload })
        const b = await reference.inject({ method: 'POST', url, payload })
        expect(a.statusCode, url).to.equal(b.statusCode)
        const { code, ...theirs } = b.json() as Record<string, unknown>
        if (b.statusCode === 400) expect(code).to.equal('FST_ERR_VALIDATION')
        expect(a.json(), `${url} ${JSON.stringify(payload)}`).to.deep.equal(theirs)
      }
      expect((await ours.inject({ method: 'POST', url: '/jobs/600', payload: { name: 'backup' } })).json()).to.deep.equal({ jobId: '600', name: 'backup', priority: 0 })
    } finally { await reference.close() }
  })

  it('writes the OpenAPI document from the zod schemas and their .meta() (components by id, descriptions, examples) exactly as Fastify 5 with @fastify/swagger does', async () => {
    const { app, reference } = declaredOnBoth(() => undefined, fastify5())
    try {
      await declareJobs(app as unknown as Declarer)
      await declareJobs(reference as unknown as Declarer)
      await app.ready()
      await reference.ready()
      // As served (JSON): the documents' objects differ only in what JSON drops (symbol marks, undefined fields).
      const ours = JSON.parse(JSON.stringify((app as unknown as { swagger(): Record<string, any> }).swagger()))
      expect(ours).to.deep.equal(JSON.parse(JSON.stringify(reference.swagger())))
      expect(ours.components.schemas.NewJob).to.deep.include({ type: 'object' })
      expect(ours.paths['/jobs/{jobId}'].post.parameters[0]).to.deep.equal({ name: 'jobId', in: 'path', required: true, description: 'Job ID', schema: { type: 'string', minLength: 3, description: 'Job ID', example: '60002023' } })
    } finally { await reference.close() }
  })

  it('works from a module: the compilers as module options, the plugins listed, a controller\'s zod route validated and documented', async () => {
    @Route('/jobs')
    class JobsController {
      @Post('/:jobId', { schema: { params: z.object({ jobId: JobId }), body: NewJob, response: { 200: Job } } })
      create(@Params('jobId') jobId: string, @Body() job: z.output<typeof NewJob>) { return { jobId, ...job, secret: 'x' } }
    }
    @Module({
      plugins: [fastifyZodOpenApiPlugin, [swagger, { openapi: { openapi: '3.1.0', info: { title: 'jobs', version: '1.0.0' } }, ...fastifyZodOpenApiTransformers }]],
      controllers: [JobsController],
      validatorCompiler: validatorCompiler as never,
      serializerCompiler: serializerCompiler as never,
    })
    class JobsModule {}
    const app = track(await createApp(JobsModule))
    const ok = await app.inject({ method: 'POST', url: '/jobs/600', payload: { name: 'backup' } })
    expect([ok.statusCode, ok.json()]).to.deep.equal([200, { jobId: '600', name: 'backup', priority: 0 }])
    expect((await app.inject({ method: 'POST', url: '/jobs/6', payload: { name: 'backup' } })).statusCode).to.equal(400)
    const document = (app as unknown as { swagger(): Record<string, any> }).swagger()
    expect(Object.keys(document.components.schemas)).to.include('NewJob')
  })
})
