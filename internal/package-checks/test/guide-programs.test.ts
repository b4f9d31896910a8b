/**
 * Guides open with one complete program: the first code block of every guide in docs/guides is
 * a TypeScript block copied, character for character, from a file in test/guide-programs/ (which
 * the package typecheck compiles and internal/integration-tests/test/guide-programs.test.ts runs
 * against the sandbox), marked `<!-- snippet: … -->` as in the READMEs. Every program file opens
 * some guide.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readmeBlocks } from './support/readme-blocks.js'

const root = join(import.meta.dirname, '..', '..', '..')
const guideDirectory = 'docs/guides'
const programDirectory = 'internal/package-checks/test/guide-programs'
const syncHint =
  'edit the program file, then run internal/package-checks/scripts/sync-readme-snippets.mjs'

const guides = readdirSync(join(root, guideDirectory)).filter((name) => name.endsWith('.md'))

/** The 1-based line of the first code fence (any language), if any. */
function firstFenceLine(markdown: string): number | undefined {
  const index = markdown.split('\n').findIndex((line) => line.startsWith('```'))
  return index === -1 ? undefined : index + 1
}

describe('guides open with a complete, checked program', () => {
  it('there are guides to check', () => {
    expect(guides.length).toBeGreaterThanOrEqual(9)
  })

  it.each(guides)('%s: its first code block is a program file, verbatim', (guide) => {
    const markdown = readFileSync(join(root, guideDirectory, guide), 'utf8')
    const [first] = readmeBlocks(markdown)
    expect(first, 'no TypeScript block').toBeDefined()
    const block = first as NonNullable<typeof first>
    expect(block.line, 'a code block comes before the program').toBe(firstFenceLine(markdown))
    expect(block.snippet).toBe(`${programDirectory}/${guide.replace(/\.md$/, '.ts')}`)
    const source = readFileSync(join(root, block.snippet as string), 'utf8').replace(/\n$/, '')
    expect(block.code, `${guide} differs from ${block.snippet}; ${syncHint}`).toBe(source)
  })

  it('every program file opens a guide', () => {
    const programs = readdirSync(join(root, programDirectory)).filter((name) =>
      name.endsWith('.ts'),
    )
    expect(programs.sort()).toEqual(guides.map((guide) => guide.replace(/\.md$/, '.ts')).sort())
  })

  it('a program imports what it uses: no excerpt-only names at the top of a guide', () => {
    for (const guide of guides) {
      const program = readFileSync(
        join(root, programDirectory, guide.replace(/\.md$/, '.ts')),
        'utf8',
      )
      expect(program, guide).toMatch(/^import .* from '@fhir-auth\/client'$/m)
      expect(program, guide).not.toMatch(/\bsettings\.|\bsessions\.create|\breadPemOrDer\b/)
    }
  })
})
