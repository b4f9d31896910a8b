/**
 * docs/README.md promises that every code excerpt of a guide comes from a runnable example. For
 * the two backend services guides this test holds the promise: each TypeScript block must be a
 * run of consecutive lines (indentation aside) of a source file of this example or of udap-b2b,
 * or of the complete program the guide opens with (internal/package-checks/test/guide-programs,
 * which the integration tests run against the sandbox), so an excerpt cannot drift from the code
 * the tests run.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..', '..')
const guides = ['docs/guides/backend-services.md', 'docs/guides/backend-services-at-scale.md']
const exampleSources = [
  'examples/backend-services/src',
  'examples/udap-b2b/src',
  'internal/package-checks/test/guide-programs',
].flatMap((directory) =>
  readdirSync(join(root, directory))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => ({
      path: `${directory}/${name}`,
      lines: normalized(readFileSync(join(root, directory, name), 'utf8')),
    })),
)

/** Lines without their indentation; blank lines dropped. */
function normalized(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

/** The TypeScript blocks of a Markdown text. */
function typeScriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)].map(
    (match) => match[1] ?? '',
  )
}

/** The source file in which `excerpt` is a run of consecutive lines, if any. */
function sourceOf(excerpt: string): string | undefined {
  const wanted = normalized(excerpt)
  return exampleSources.find(({ lines }) =>
    lines.some((_, start) => wanted.every((line, offset) => lines[start + offset] === line)),
  )?.path
}

describe('guide excerpts come from the examples', () => {
  for (const guide of guides) {
    it(`${guide}: every TypeScript block is code of examples/backend-services, udap-b2b or the guide's program`, () => {
      const blocks = typeScriptBlocks(readFileSync(join(root, guide), 'utf8'))
      expect(blocks.length).toBeGreaterThan(0)
      for (const block of blocks) expect(sourceOf(block), block).toBeDefined()
    })
  }

  it('the matcher finds runs of lines and nothing else', () => {
    expect(sourceOf('return client.backendTokens({ b2b, ...trust })')).toBe(
      'examples/udap-b2b/src/udap-b2b.ts',
    )
    expect(sourceOf('return client.backendTokens({ b2b, trust })')).toBeUndefined()
    expect(sourceOf('const b2b: B2bAuthorizationExtension = {\n}')).toBeUndefined()
  })
})
