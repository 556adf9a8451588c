import { Body, Get, Module, Params, Post, Reply, Route } from '../../src'
import { Repository } from './repository'
import { ById, NewUser, User } from './schemas'

@Route('/users')
export class UsersController {
  constructor(private readonly repository: Repository) {}

  @Post('/', { schema: { response: { 201: User } } })
  create(@Body() user: NewUser, @Reply() reply: Reply): User {
    reply.code(201)
    return this.repository.addUser(user)
  }

  @Get('/:id', { schema: { response: { 200: User } } })
  find(@Params() { id }: ById): User {
    return this.repository.user(id)
  }
}

@Module({ controllers: [UsersController] })
export class UsersModule {}
