// Plain-text table rendering: left-aligned first columns, right-aligned numbers.

export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], leftColumns: number): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const cell = (text: string, i: number): string => (i < leftColumns ? text.padEnd(widths[i]) : text.padStart(widths[i]))
  const line = (cells: readonly string[]): string => cells.map(cell).join('  ').trimEnd()
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

export function fixed(value: number | null, digits: number): string {
  return value === null ? '-' : value.toFixed(digits)
}

export function ratio(value: number | null): string {
  return value === null ? '-' : `${value.toFixed(2)}x`
}

export function thousands(value: number): string {
  return Math.round(value).toLocaleString('en-US')
}
