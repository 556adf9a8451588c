import { HttpError, injectable } from '../../src'
import type { NewNote, NewUser, Note, NoteFilter, User } from './schemas'

/** A rule of the domain was broken (not a malformed request): NotesModule answers it with 422. */
export class UnknownAuthorError extends Error {
  constructor(readonly authorId: number) { super(`No user with id ${authorId} can author a note`) }
}

/** The store both modules share: one instance, provided by AppModule (an in-memory stand-in for a database). */
@injectable()
export class Repository {
  readonly #users = new Map<number, User>()
  readonly #notes = new Map<number, Note>()

  addUser(user: NewUser): User {
    const stored = { id: this.#users.size + 1, ...user }
    this.#users.set(stored.id, stored)
    return stored
  }

  user(id: number): User {
    return found(this.#users.get(id), `No user with id ${id}`)
  }

  addNote({ authorId, title, tags = [] }: NewNote): Note {
    if (!this.#users.has(authorId)) throw new UnknownAuthorError(authorId)
    const stored = { id: this.#notes.size + 1, authorId, title, tags }
    this.#notes.set(stored.id, stored)
    return stored
  }

  note(id: number): Note {
    return found(this.#notes.get(id), `No note with id ${id}`)
  }

  notes({ authorId, tag }: NoteFilter): Note[] {
    return [...this.#notes.values()].filter((n) =>
      (authorId === undefined || n.authorId === authorId) && (tag === undefined || n.tags.includes(tag)))
  }
}

function found<T>(value: T | undefined, message: string): T {
  if (value === undefined) throw new HttpError(404, message)
  return value
}
