/**
 * Finds the TypeScript blocks of a Markdown file and the snippet file each one is copied from,
 * named by a `<!-- snippet: path -->` comment on the line just above the opening fence.
 */

/** One fenced TypeScript block. */
export interface ReadmeBlock {
  /** 1-based line of the opening fence. */
  readonly line: number
  /** Repository-relative path from the marker above the fence, if there is one. */
  readonly snippet: string | undefined
  readonly code: string
}

const markerPattern = /^<!--\s*snippet:\s*(\S+)\s*-->\s*$/
const typescriptFence = /^```(ts|typescript)\s*$/
const anyFence = /^```/

export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n')
  const blocks: ReadmeBlock[] = []
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string
    if (!anyFence.test(line)) continue
    const end = lines.findIndex((candidate, at) => at > index && /^```\s*$/.test(candidate))
    const closing = end === -1 ? lines.length : end
    if (typescriptFence.test(line)) {
      const marker = markerPattern.exec(lines[index - 1] ?? '')
      blocks.push({
        line: index + 1,
        snippet: marker?.[1],
        code: lines.slice(index + 1, closing).join('\n'),
      })
    }
    index = closing
  }
  return blocks
}
