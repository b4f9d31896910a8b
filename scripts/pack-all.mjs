#!/usr/bin/env node
/**
 * `pnpm pack:all`: one installable npm tarball per published package, written to `packs/` (the
 * README's "Install from a checkout"). The root script builds first (`turbo run build` of
 * packages/*), then runs this file, which packs with `pnpm pack` (the `workspace:^` ranges between
 * the packages become `^<version>`) and refuses a tarball that would not install.
 *
 * Options: `--destination <directory>` writes the tarballs elsewhere (the tests pack into a
 * scratch directory). Old tarballs in the destination are removed first, so it holds exactly one
 * version of each package. Exits non-zero when a package does not pack cleanly.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  packTarball,
  publishedPackageDirectories,
} from '../internal/package-checks/src/pack-tarballs.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const argumentsGiven = process.argv.slice(2)
const destinationIndex = argumentsGiven.indexOf('--destination')
const destination =
  destinationIndex === -1 ? join(root, 'packs') : resolve(argumentsGiven[destinationIndex + 1])

mkdirSync(destination, { recursive: true })
for (const entry of readdirSync(destination)) {
  if (entry.endsWith('.tgz')) rmSync(join(destination, entry))
}

let failed = false
for (const name of publishedPackageDirectories) {
  const packed = packTarball(root, name, destination)
  if (packed.problems.length > 0) {
    failed = true
    console.error(`${packed.name}: ${packed.problems.join('; ')}`)
  } else {
    console.log(`${packed.name.padEnd(28)} ${relative(process.cwd(), packed.tarball)}`)
  }
}
if (failed) {
  process.exitCode = 1
} else {
  console.log(`\nInstall them into a project with: npm install ${join(destination, '*.tgz')}`)
}
