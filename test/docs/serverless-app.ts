import { Body, Get, HttpCode, Post, Query, Reply, Req, Route, Module, type Request, type SchemaParam } from '../../src'

// The app docs/deploy.md's serverless handler is run against (serverless-handler.test.ts).
const item = { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string', minLength: 1 } } } as const

@Route('/t')
class ServerlessController {
  @Get('/echo')
  echo(@Req() request: Request, @Query('q', { type: 'integer', default: 0 }) q: SchemaParam<number>, @Reply() reply: Reply) {
    reply.header('set-cookie', ['a=1; Path=/', 'b=2; HttpOnly'])
    return { ip: request.ip, q, cookie: request.headers.cookie ?? null }
  }

  @HttpCode(201)
  @Post('/items', { schema: { body: item } })
  create(@Body() body: { name: string }) { return { created: body.name } }

  @Get('/pixel')
  pixel(@Reply() reply: Reply) { reply.type('image/png'); return Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff]) }
}

@Module({ controllers: [ServerlessController] })
export class AppModule {}
