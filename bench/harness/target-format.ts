// How target lines print a verdict and a ratio.

export function mark(ok: boolean | null): string {
  return ok === null ? 'n/a ' : ok ? 'met ' : 'MISS'
}

// Three decimals: a 1.097x printed as 1.10x next to "MISS (>= 1.10)" would read as a bug.
export function x(value: number | null): string {
  return value === null ? '-' : `${value.toFixed(3)}x`
}
