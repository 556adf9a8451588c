import { ENDPOINTS, type Endpoint } from './endpoints'

// The `--name=value` flags of the single-purpose bench tools (cpu-account, gc-trace,
// alloc-account); `npm run bench` itself reads its options through options.ts.

export function flag(name: string): string | undefined {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`))
  return arg === undefined ? undefined : arg.slice(name.length + 3)
}

/** A comma-separated flag's values, or all of `all` when it is not given. */
export const list = (value: string | undefined, all: readonly string[]): string[] => (value === undefined ? [...all] : value.split(',').filter((v) => v !== ''))

/** The `--endpoints=` flag as endpoints (every one when it is not given); an unknown id throws. */
export function endpointsFlag(): Endpoint[] {
  return list(flag('endpoints'), ENDPOINTS.map((e) => e.id)).map((id) => {
    const endpoint = ENDPOINTS.find((e) => e.id === id)
    if (endpoint === undefined) throw new Error(`unknown endpoint '${id}'`)
    return endpoint
  })
}
