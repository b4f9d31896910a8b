/** One row of a two-column listing: a label and its value. */
export type FieldRow = readonly [label: string, value: unknown]

/**
 * Renders a value for a person: strings as they are, lists joined with commas, booleans as
 * yes/no, objects as compact JSON, `undefined` as a dash.
 */
function formatValue(value: unknown): string {
  if (value === undefined || value === null) return '-'
  if (typeof value === 'string') return value === '' ? '""' : value
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (Array.isArray(value)) {
    return value.every((item) => typeof item === 'string')
      ? value.length === 0
        ? '(none)'
        : value.join(', ')
      : JSON.stringify(value)
  }
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/**
 * Renders rows as an indented two-column listing with aligned values, one row per line.
 *
 * @example
 * ```ts
 * formatRows([['token_type', 'Bearer'], ['expires_in', 300]])
 * // '  token_type  Bearer\n  expires_in  300\n'
 * ```
 */
export function formatRows(rows: readonly FieldRow[], indent = '  '): string {
  const width = Math.max(0, ...rows.map(([label]) => label.length))
  return rows
    .map(([label, value]) => `${indent}${label.padEnd(width)}  ${formatValue(value)}\n`)
    .join('')
}

/** The members of a JSON object as rows, in the order the server sent them. */
export function objectRows(value: Readonly<Record<string, unknown>>): FieldRow[] {
  return Object.entries(value).map(([name, member]) => [name, member] as const)
}

/**
 * Renders a table: a header line, then one line per row, columns padded to their widest cell.
 *
 * @example
 * ```ts
 * formatTable(['scope', 'v2'], [['patient/*.read', 'patient/*.rs']])
 * // 'scope           v2\npatient/*.read  patient/*.rs\n'
 * ```
 */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const line = (cells: readonly string[]) =>
    `${cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd()}\n`
  return [line(headers), ...rows.map(line)].join('')
}
