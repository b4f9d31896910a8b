/** Joins `items` with `separator` into lines no longer than `width` (an item never splits). */
export function wrapList(items: readonly string[], width: number, separator = '  '): string[] {
  const lines: string[] = []
  let current = ''
  for (const item of items) {
    const candidate = current === '' ? item : `${current}${separator}${item}`
    if (current !== '' && visibleLength(candidate) > width) {
      lines.push(current)
      current = item
    } else {
      current = candidate
    }
  }
  if (current !== '') lines.push(current)
  return lines
}

/** Length without ANSI colour sequences. */
function visibleLength(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
  return text.replace(/\u001b\[[0-9;]*m/g, '').length
}
