/**
 * Guards DESIGN §1: core, smart, udap, crypto-webcrypto and web run in any runtime with fetch and
 * WebCrypto, so their sources (tests excluded) must not import a Node built-in — neither through
 * `node:*` nor the bare names (`crypto`, `fs`, …), statically or dynamically — nor node-forge.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..', '..')
const portablePackages = ['core', 'smart', 'udap', 'crypto-webcrypto', 'web']
const builtins = new Set(builtinModules.filter((name) => !name.startsWith('_')))

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.ts$/.test(entry) && !/\.test(-d)?\.ts$/.test(entry) ? [path] : []
  })
}

const specifierPattern =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g

function forbiddenSpecifiers(source: string): string[] {
  return [...source.matchAll(specifierPattern)]
    .map((match) => match[1] as string)
    .filter(
      (specifier) =>
        specifier.startsWith('node:') ||
        builtins.has(specifier.split('/')[0] as string) ||
        specifier === 'node-forge',
    )
}

describe('portable packages import no Node built-ins', () => {
  for (const name of portablePackages) {
    it(`packages/${name}/src`, () => {
      const offenders = sourceFiles(join(root, 'packages', name, 'src')).flatMap((file) =>
        forbiddenSpecifiers(readFileSync(file, 'utf8')).map(
          (specifier) => `${relative(root, file)}: ${specifier}`,
        ),
      )
      expect(offenders).toEqual([])
    })
  }

  it('the scanner catches every import form', () => {
    const sample = [
      "import { x } from 'node:crypto'",
      'import fs from "fs"',
      "const m = await import('node:path')",
      "import 'node:util'",
      "export { y } from 'crypto'",
      "const f = require('node-forge')",
      "import { ok } from './local.js'",
    ].join('\n')
    expect(forbiddenSpecifiers(sample)).toEqual([
      'node:crypto',
      'fs',
      'node:path',
      'node:util',
      'crypto',
      'node-forge',
    ])
  })
})
