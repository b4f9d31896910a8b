import type { SectionReport } from './figure.js'

const headers = ['figure', 'goal', 'measured', 'verdict'] as const

/**
 * Renders the sections as one plain-text table (figure, goal, measured, verdict), followed by
 * each section's detail lines. Plain text without colours, so it reads the same in a terminal,
 * a CI log and a README.
 */
export function renderTable(sections: readonly SectionReport[]): string {
  const rows = sections.flatMap((section) =>
    section.figures.map((figure) => [figure.label, figure.goal, figure.measured, figure.verdict]),
  )
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join(' | ')
      .trimEnd()
  const separator = widths.map((width) => '-'.repeat(width)).join('-|-')
  const lines = [line(headers), separator, ...rows.map(line)]
  for (const section of sections) {
    if (section.details.length === 0) continue
    lines.push('', `${section.title}:`, ...section.details.map((detail) => `  ${detail}`))
  }
  return lines.join('\n')
}
