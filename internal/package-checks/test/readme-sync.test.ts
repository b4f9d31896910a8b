/**
 * Keeps the READMEs honest: every TypeScript block in the READMEs of the repository root, core,
 * smart, client and store-redis is a copy of a file in test/readme-snippets/ (compiled by the
 * typecheck and run by readme-snippets*.test.ts), character for character, and every snippet
 * file is shown somewhere.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readmeBlocks } from './support/readme-blocks.js'

const root = join(import.meta.dirname, '..', '..', '..')
const snippetDirectory = 'internal/package-checks/test/readme-snippets'
const checkedReadmes = [
  '.',
  'packages/core',
  'packages/smart',
  'packages/client',
  'packages/store-redis',
]
const syncHint =
  'edit the snippet file, then run internal/package-checks/scripts/sync-readme-snippets.mjs'

function readme(packageDirectory: string): string {
  return readFileSync(join(root, packageDirectory, 'README.md'), 'utf8')
}

describe('README code blocks are the tested snippets', () => {
  for (const packageDirectory of checkedReadmes) {
    it(`${packageDirectory}/README.md shows only tested snippets, verbatim`, () => {
      const blocks = readmeBlocks(readme(packageDirectory))
      expect(blocks.length).toBeGreaterThan(0)
      for (const block of blocks) {
        expect(block.snippet, `block at line ${block.line} has no snippet marker`).toBeDefined()
        const path = block.snippet as string
        expect(path.startsWith(`${snippetDirectory}/`)).toBe(true)
        const source = readFileSync(join(root, path), 'utf8').replace(/\n$/, '')
        expect(block.code, `block at line ${block.line} differs from ${path}; ${syncHint}`).toBe(
          source,
        )
      }
    })
  }

  it('every snippet file appears in a README', () => {
    const shown = new Set(
      checkedReadmes.flatMap((directory) =>
        readmeBlocks(readme(directory)).map((block) => block.snippet),
      ),
    )
    const files = readdirSync(join(root, snippetDirectory)).filter((name) => name.endsWith('.ts'))
    expect(files.filter((name) => !shown.has(`${snippetDirectory}/${name}`))).toEqual([])
  })

  it('the block reader finds marked and unmarked TypeScript blocks only', () => {
    const markdown = [
      '# Title',
      '<!-- snippet: internal/package-checks/test/readme-snippets/a.ts -->',
      '```ts',
      "const a = 'a'",
      '```',
      '```sh',
      'npm install x',
      '```',
      'text',
      '```typescript',
      'const b = 1',
      '',
      '```',
    ].join('\n')
    expect(readmeBlocks(markdown)).toEqual([
      {
        line: 3,
        snippet: 'internal/package-checks/test/readme-snippets/a.ts',
        code: "const a = 'a'",
      },
      { line: 10, snippet: undefined, code: 'const b = 1\n' },
    ])
  })
})
