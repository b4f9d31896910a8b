import { describe, expect, it } from 'vitest'
import { fitToWidth } from './fit-width.js'
import { createTerminalStyle } from './terminal-style.js'

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
const visible = (text: string) => [...text.replace(/\u001b\[[0-9;]*m/g, '')].length

describe('fitToWidth', () => {
  it('leaves a line alone when it fits, or when there is no terminal width', () => {
    expect(fitToWidth('  short line', 90)).toEqual(['  short line'])
    const long = `  ${'x'.repeat(400)}`
    expect(fitToWidth(long, undefined)).toEqual([long])
  })

  it('wraps a 399-character line to 90 columns, continuation rows indented, nothing lost', () => {
    const words = Array.from({ length: 57 }, (_, index) => `word${index}`)
    const line = `  → POST http://127.0.0.1:9/token  ${words.join(' ')}`.slice(0, 399)
    const rows = fitToWidth(line, 90)
    expect(rows.length).toBeGreaterThan(4)
    for (const row of rows) expect(visible(row)).toBeLessThanOrEqual(90)
    for (const row of rows.slice(1)) expect(row.startsWith('      ')).toBe(true)
    expect(
      rows
        .map((row) => row.trim())
        .join(' ')
        .replace(/\s+/g, ' '),
    ).toBe(line.trim().replace(/\s+/g, ' '))
  })

  it('breaks a value without spaces (a URL) hard, keeping every character', () => {
    const url = `https://ehr.example.org/${'a'.repeat(200)}`
    const rows = fitToWidth(`  ${url}`, 60)
    for (const row of rows) expect(visible(row)).toBeLessThanOrEqual(60)
    expect(rows.map((row) => row.trim()).join('')).toBe(url)
  })

  it('keeps colours across the break and closes them at the end of a row', () => {
    const style = createTerminalStyle(true)
    const line = `  ${style.dim('x'.repeat(100))}`
    const rows = fitToWidth(line, 50)
    expect(rows.length).toBe(3)
    for (const row of rows) expect(visible(row)).toBeLessThanOrEqual(50)
    expect(rows[1]).toContain('\u001b[2m')
    expect(rows[0]?.endsWith('\u001b[0m')).toBe(true)
  })

  it('treats a very narrow terminal as 40 columns', () => {
    for (const row of fitToWidth(`  ${'y'.repeat(100)}`, 10)) {
      expect(visible(row)).toBeLessThanOrEqual(40)
    }
  })
})
