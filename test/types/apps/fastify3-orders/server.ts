// Was: `const app = build({ logger: true }); app.listen(Number(process.env.PORT ?? 3000), '0.0.0.0', (err) => { ... })`.
import { build } from './app'

export async function start(): Promise<void> {
  const app = build({ trustProxy: true })
  const address: string = await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' })
  app.log.info({ address }, 'orders service up')
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { void app.close() })
}
