import { Body, ErrorHandler, Get, Module, Params, Post, Query, Reply, Route, type Request } from '../../src'
import { Repository, UnknownAuthorError } from './repository'
import { ById, NewNote, Note, NoteFilter, NoteList } from './schemas'

@Route('/notes')
export class NotesController {
  constructor(private readonly repository: Repository) {}

  @Post('/', { schema: { response: { 201: Note } } })
  create(@Body() note: NewNote, @Reply() reply: Reply): Note {
    reply.code(201)
    return this.repository.addNote(note)
  }

  @Get('/', { schema: { response: { 200: NoteList } } })
  list(@Query() filter: NoteFilter): NoteList {
    return { items: this.repository.notes(filter) }
  }

  @Get('/:id', { schema: { response: { 200: Note } } })
  find(@Params() { id }: ById): Note {
    return this.repository.note(id)
  }
}

@Module({ controllers: [NotesController] })
export class NotesModule {
  // This module's routes only: a broken domain rule is 422; anything else goes on up (400, 404, 500).
  @ErrorHandler()
  onError(error: Error, _request: Request, reply: Reply): void {
    if (!(error instanceof UnknownAuthorError)) throw error
    reply.code(422).send({ statusCode: 422, code: 'NOTES_UNKNOWN_AUTHOR', error: 'Unprocessable Entity', message: error.message })
  }
}
