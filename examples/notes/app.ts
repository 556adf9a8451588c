import { Module, bearerAuth, createApp, type App } from '../../src'
import { NotesModule } from './notes'
import { Repository } from './repository'
import { Note, User } from './schemas'
import { UsersModule } from './users'

/** The notes service: every route behind one bearer token check, two feature modules sharing a repository. */
export async function buildNotesApp(keys: readonly string[]): Promise<App> {
  @Module({ plugins: [bearerAuth({ keys }), UsersModule, NotesModule], providers: [Repository], schemas: [User, Note] })
  class AppModule {}
  return createApp(AppModule)
}
