#!/usr/bin/env node
/**
 * Copies each snippet file into the Markdown block marked with `<!-- snippet: <path>.ts -->`, for
 * the READMEs that test/readme-sync.test.ts checks and the guides in docs/guides (whose first
 * block is a program from test/guide-programs/, test/guide-programs.test.ts). Edit the snippet
 * file (which is compiled, linted and run by the tests), then run this:
 * `node internal/package-checks/scripts/sync-readme-snippets.mjs`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const readmes = ['.', 'packages/core', 'packages/smart', 'packages/client', 'packages/store-redis']
const guides = readdirSync(join(root, 'docs/guides'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/guides/${name}`)
const markedBlock = /(<!--\s*snippet:\s*(\S+)\s*-->\n```(?:ts|typescript)\n)([\s\S]*?)(\n```)/g

for (const file of [...readmes.map((directory) => `${directory}/README.md`), ...guides]) {
  const path = join(root, file)
  const before = readFileSync(path, 'utf8')
  const after = before.replace(markedBlock, (_match, opening, snippet, _code, closing) => {
    const source = readFileSync(join(root, snippet), 'utf8').replace(/\n$/, '')
    return `${opening}${source}${closing}`
  })
  if (after !== before) {
    writeFileSync(path, after)
    console.log(`updated ${file}`)
  }
}
