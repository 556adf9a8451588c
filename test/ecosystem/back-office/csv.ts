// docs/recipes-back-office.md: CSV out (quoted, formula-safe) and CSV in, read line by line with a report of bad rows.
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'

export type Status = 'active' | 'churned' | 'trial'
export interface Customer { id: number; name: string; email: string; status: Status; vip: boolean; createdAt: string }

const COLUMNS = ['id', 'name', 'email', 'status', 'vip', 'createdAt'] as const
const STATUSES: readonly string[] = ['active', 'churned', 'trial']
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/

// RFC 4180 quoting; a leading = + - @ is prefixed with ' so a spreadsheet does not run the cell as a formula.
export function csvCell(value: unknown): string {
  let text = String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function* toCsv(rows: Iterable<Customer>): Generator<string> {
  yield COLUMNS.join(',') + '\r\n'
  for (const row of rows) yield COLUMNS.map((column) => csvCell(row[column])).join(',') + '\r\n'
}

export function parseCsvLine(line: string): string[] {
  const cells: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cell += '"'; i++ } else if (ch === '"') quoted = false
      else cell += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') { cells.push(cell); cell = '' } else cell += ch
  }
  cells.push(cell)
  return cells
}

export type NewCustomer = Omit<Customer, 'id' | 'createdAt'>
export interface Rejected { line: number; errors: string[] }

// Reads the upload line by line to its end (a stream left half-read would stall the request);
// each row is checked, and every bad one reported with its line and all its errors. One line is
// one row: a quoted cell holding a line break (csvCell writes them) is not read back.
export async function readCustomersCsv(stream: Readable): Promise<{ rows: NewCustomer[]; rejected: Rejected[] }> {
  const rows: NewCustomer[] = []
  const rejected: Rejected[] = []
  let header: string[] | undefined
  let headerRefused = false
  let line = 0
  for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
    line++
    if (text.trim() === '' || headerRefused) continue
    const cells = parseCsvLine(text)
    if (header === undefined) {
      header = cells.map((cell) => cell.trim())
      const missing = ['name', 'email', 'status'].filter((column) => !header!.includes(column))
      if (missing.length > 0) {
        headerRefused = true
        rejected.push({ line, errors: [`header lacks ${missing.join(', ')}`] })
      }
      continue
    }
    const row = Object.fromEntries(header.map((column, i) => [column, (cells[i] ?? '').trim()]))
    const errors: string[] = []
    if (row.name.length < 2) errors.push('name: at least 2 characters')
    if (!EMAIL.test(row.email)) errors.push(`email: "${row.email}" is not an email`)
    if (!STATUSES.includes(row.status)) errors.push(`status: "${row.status}" is not one of ${STATUSES.join(', ')}`)
    if (row.vip !== undefined && row.vip !== '' && row.vip !== 'true' && row.vip !== 'false') errors.push('vip: true or false')
    if (errors.length > 0) rejected.push({ line, errors })
    else rows.push({ name: row.name, email: row.email, status: row.status as Status, vip: row.vip === 'true' })
  }
  return { rows, rejected }
}
