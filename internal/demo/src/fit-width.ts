/**
 * Fits transcript lines to the terminal: a line wider than the terminal is wrapped (at a space
 * when there is one in the last third of the row, else hard), its continuation rows indented
 * under the line's own indentation. Colours survive the break: the ANSI sequences seen before
 * it are replayed at the start of the next row. Width is counted in characters (code points),
 * ANSI sequences excluded.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
const ansiSequence = /\u001b\[[0-9;]*m/y

/** Below this, wrapping would make more noise than it saves. */
const minimumWidth = 40
const continuationIndent = '    '
const reset = '\u001b[0m'

/** One visible character or one ANSI sequence. */
interface Piece {
  readonly text: string
  readonly visible: boolean
}

function pieces(line: string): Piece[] {
  const result: Piece[] = []
  let index = 0
  while (index < line.length) {
    ansiSequence.lastIndex = index
    const match = ansiSequence.exec(line)
    if (match !== null) {
      result.push({ text: match[0], visible: false })
      index += match[0].length
      continue
    }
    const character = String.fromCodePoint(line.codePointAt(index) ?? 0)
    result.push({ text: character, visible: true })
    index += character.length
  }
  return result
}

/**
 * `line` as rows of at most `width` visible characters (`width` below 40 counts as 40); the
 * line itself when it fits or when `width` is undefined (not a terminal: pipes keep long lines).
 */
export function fitToWidth(line: string, width: number | undefined): string[] {
  if (width === undefined || !Number.isFinite(width)) return [line]
  const limit = Math.max(minimumWidth, Math.floor(width))
  const all = pieces(line)
  if (all.filter((piece) => piece.visible).length <= limit) return [line]
  const indentation = (/^ */.exec(line)?.[0] ?? '') + continuationIndent
  const rows: string[] = []
  const seen: string[] = []
  let rest = all
  let prefix = ''
  while (rest.length > 0) {
    const room = limit - visibleLength(prefix)
    let visible = 0
    let end = 0
    let lastSpace = -1
    for (; end < rest.length; end++) {
      const piece = rest[end] as Piece
      if (!piece.visible) continue
      if (visible === room) break
      if (piece.text === ' ') lastSpace = end
      visible++
    }
    const breaksInside = end < rest.length
    if (breaksInside && lastSpace > 0 && visible - countVisible(rest, lastSpace) <= room / 3) {
      end = lastSpace + 1
    }
    const row = rest.slice(0, end)
    const text = row.map((piece) => piece.text).join('')
    const painted = seen.length > 0 && prefix !== ''
    rows.push(`${prefix}${painted ? seen.join('') : ''}${breaksInside ? text.trimEnd() : text}`)
    for (const piece of row) if (!piece.visible) seen.push(piece.text)
    rest = rest.slice(end)
    while (rest[0]?.visible === true && rest[0].text === ' ') rest = rest.slice(1)
    if (breaksInside && seen.length > 0) rows[rows.length - 1] += reset
    prefix = indentation
  }
  return rows
}

function countVisible(all: readonly Piece[], end: number): number {
  return all.slice(0, end).filter((piece) => piece.visible).length
}

function visibleLength(text: string): number {
  return pieces(text).filter((piece) => piece.visible).length
}
