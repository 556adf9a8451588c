/**
 * Starts every requested contender and runs the correctness pre-flight. A server that does not
 * start is skipped with its reason (the Enclave layers may be mid-construction); an endpoint that
 * answers wrongly is left out for that contender and reported.
 */
import { Endpoint } from './endpoints'
import { preflight } from './preflight'
import { startServer, ServerHandle } from './server-process'
import type { BenchApp } from './contenders'

export interface Lineup {
  readonly servers: ServerHandle[]
  /** contender -> why it did not start. */
  readonly skipped: Record<string, string>
  /** `contender endpoint` -> what was wrong with its answer. */
  readonly wrong: Record<string, string>
}

export function answersKey(contender: string, endpointId: string): string {
  return `${contender} ${endpointId}`
}

export async function startContenders(names: readonly string[], endpoints: readonly Endpoint[],
  serverCpus: string | null, log: (line: string) => void, nodeFlags: readonly string[] = [], app: BenchApp = 'minimal'): Promise<Lineup> {
  const lineup: Lineup = { servers: [], skipped: {}, wrong: {} }
  for (const name of names) {
    let server: ServerHandle
    try {
      server = await startServer(name, serverCpus, nodeFlags, app)
    } catch (error) {
      lineup.skipped[name] = (error as Error).message
      log(`skip ${name}: server did not start: ${(error as Error).message}`)
      continue
    }
    lineup.servers.push(server)
    for (const endpoint of endpoints) {
      const wrong = await preflight(server.port, endpoint)
      if (wrong === null) continue
      lineup.wrong[answersKey(name, endpoint.id)] = wrong
      log(`skip ${name} ${endpoint.id}: wrong answer: ${wrong}`)
    }
  }
  return lineup
}

export async function stopContenders(lineup: Lineup): Promise<void> {
  await Promise.all(lineup.servers.map((s) => s.stop()))
}
