import { buildNotesApp } from './app'

// node dist/examples/notes/main.js (NOTES_KEYS=comma,separated,tokens; PORT)
async function main(): Promise<void> {
  const app = await buildNotesApp((process.env.NOTES_KEYS ?? 'dev-token').split(','))
  await app.listen({ port: Number(process.env.PORT ?? 3000) })
}

void main()
