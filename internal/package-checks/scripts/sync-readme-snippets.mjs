#!/usr/bin/env node
/**
 * Copies each README snippet file into the README block marked with
 * `<!-- snippet: internal/package-checks/test/readme-snippets/<file>.ts -->`, for the READMEs
 * that test/readme-sync.test.ts checks. Edit the snippet file (which is compiled, linted and
 * run by the tests), then run this: `node internal/package-checks/scripts/sync-readme-snippets.mjs`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const readmes = ['.', 'packages/core', 'packages/smart', 'packages/client', 'packages/store-redis']
const markedBlock = /(<!--\s*snippet:\s*(\S+)\s*-->\n```(?:ts|typescript)\n)([\s\S]*?)(\n```)/g

for (const directory of readmes) {
  const path = join(root, directory, 'README.md')
  const before = readFileSync(path, 'utf8')
  const after = before.replace(markedBlock, (_match, opening, snippet, _code, closing) => {
    const source = readFileSync(join(root, snippet), 'utf8').replace(/\n$/, '')
    return `${opening}${source}${closing}`
  })
  if (after !== before) {
    writeFileSync(path, after)
    console.log(`updated ${directory}/README.md`)
  }
}
