/**
 * Keeps the launch guides and "Tokens over time" honest (docs/README.md): every TypeScript block
 * in them is a run of consecutive lines of runnable code that CI type-checks and runs — an
 * example's `src/` or a README snippet — compared line by line with the indentation removed, so a
 * guide can show a line out of its function without it being rewritten. A block that is edited
 * in the guide only, or whose source changed, fails here.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readmeBlocks } from './support/readme-blocks.js'

const root = join(import.meta.dirname, '..', '..', '..')
const checkedGuides = [
  'docs/guides/ehr-launch.md',
  'docs/guides/standalone-launch.md',
  'docs/guides/tokens-over-time.md',
]
const sourceDirectories = [
  'examples/node-web-app-by-hand/src',
  'examples/browser-spa/src',
  'internal/package-checks/test/readme-snippets',
  'internal/package-checks/test/guide-programs',
  'internal/integration-tests/test/browser-tabs/support',
]

/** Every `.ts` file under the source directories, as arrays of trimmed lines. */
function runnableSources(): { path: string; lines: string[] }[] {
  return sourceDirectories.flatMap((directory) =>
    readdirSync(join(root, directory), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => {
        const path = join(root, directory, name)
        return { path: relative(root, path), lines: trimmedLines(readFileSync(path, 'utf8')) }
      }),
  )
}

function trimmedLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

/** The source file holding `block` as consecutive lines, if any. */
function sourceOf(block: string, sources: ReturnType<typeof runnableSources>): string | undefined {
  const wanted = trimmedLines(block)
  return sources.find(({ lines }) =>
    lines.some((_line, start) => wanted.every((line, offset) => lines[start + offset] === line)),
  )?.path
}

describe('guide excerpts come from runnable code', () => {
  const sources = runnableSources()

  it.each(checkedGuides)(
    'every TypeScript block of %s is in an example or a README snippet',
    (guide) => {
      const blocks = readmeBlocks(readFileSync(join(root, guide), 'utf8'))
      expect(blocks.length).toBeGreaterThan(1)
      const orphans = blocks
        .filter((block) => sourceOf(block.code, sources) === undefined)
        .map((block) => `line ${block.line}: ${block.code.split('\n')[0]}`)
      expect(orphans).toEqual([])
    },
  )

  it('finds a real excerpt, and refuses one changed by a character (the check is not blind)', () => {
    const excerpt = 'const session = await client.completeAuthorization(callbackUrl, { store })'
    expect(sourceOf(excerpt, sources)).toBe('examples/browser-spa/src/app.ts')
    expect(sourceOf(excerpt.replace('store }', 'store  }'), sources)).toBeUndefined()
    expect(sourceOf(`${excerpt}\nsession.tokens`, sources)).toBeUndefined()
  })
})
