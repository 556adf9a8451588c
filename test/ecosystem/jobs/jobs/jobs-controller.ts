import { Body, Get, Headers, Params, Post, Delete, Reply, Req, Route, type Request } from '../../../../src'
import { JobId, JobStatus, newJob, type NewJob } from './job-schemas'
import { JobsService, type JobView } from './jobs-service'
import { subjectOf } from '../auth'

const idempotencyHeader = { type: 'object', properties: { 'idempotency-key': { type: 'string', minLength: 8, maxLength: 100 } } } as const

@Route('/jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Post('/', { schema: { body: newJob, headers: idempotencyHeader, response: { 200: JobStatus, 202: JobStatus } } })
  async enqueue(@Body() body: NewJob, @Headers('idempotency-key') key: string | undefined, @Reply() reply: Reply, @Req() request: Request): Promise<JobView> {
    const { job, created } = await this.jobs.enqueue(body, key, subjectOf(request))
    request.log.child({ jobId: job.id }).info({ created, type: body.type }, 'job enqueued')
    reply.code(created ? 202 : 200).header('location', `/jobs/${job.id}`)
    return job
  }

  @Get('/:id', { schema: { params: JobId, response: { 200: JobStatus } } })
  status(@Params() params: JobId, @Req() request: Request): Promise<JobView> {
    return this.jobs.status(params.id, subjectOf(request))
  }

  @Get('/:id/events', { schema: { params: JobId } })
  async events(@Params() params: JobId, @Reply() reply: Reply, @Req() request: Request) {
    const stream = await this.jobs.progressStream(params.id, subjectOf(request))
    reply.type('text/event-stream').header('cache-control', 'no-store')
    return stream
  }

  @Delete('/:id', { schema: { params: JobId, response: { 200: JobStatus } } })
  cancel(@Params() params: JobId, @Req() request: Request): Promise<JobView> {
    return this.jobs.cancel(params.id, subjectOf(request))
  }
}
