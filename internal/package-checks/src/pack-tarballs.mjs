/**
 * Packs the published packages into npm tarballs, as `pnpm pack:all` (scripts/pack-all.mjs) and
 * `pnpm check:packages` (scripts/check-packages.mjs) both do. `pnpm pack` rewrites the
 * `workspace:^` ranges between the packages into plain semver ranges (`^0.4.0`), which `npm pack`
 * leaves as they are (npm then fails with EUNSUPPORTEDPROTOCOL); every tarball is checked with
 * {@link tarballProblems}, so one that still holds a `workspace:` range is refused.
 * Plain JavaScript because the root scripts run on plain Node; the types are in
 * pack-tarballs.d.mts.
 *
 * @see https://pnpm.io/workspaces#publishing-workspace-packages
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { tarballProblems } from './packaging-rules.mjs'

/** The published packages (directories under packages/), dependencies before dependents. */
export const publishedPackageDirectories = Object.freeze([
  'core',
  'smart',
  'udap',
  'crypto-node',
  'crypto-webcrypto',
  'store-redis',
  'client',
  'cli',
  'web',
])

/** The file name `pnpm pack` gives a package's tarball: `fhir-auth-client-0.4.0.tgz`. */
export function tarballName(manifest) {
  return `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`
}

/**
 * The pnpm to run: the one running this script when it was started by pnpm (`npx -y pnpm@10
 * pack:all` puts no `pnpm` on the PATH of a machine without one), otherwise `pnpm` from the PATH.
 */
function pnpmCommand() {
  const running = process.env.npm_execpath
  if (running !== undefined && /^pnpm\.c?js$/.test(basename(running))) {
    return { command: process.execPath, prefix: [running] }
  }
  return { command: 'pnpm', prefix: [] }
}

function tar(tarArguments) {
  const result = spawnSync('tar', tarArguments, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) throw new Error(`tar ${tarArguments.join(' ')} failed\n${result.stderr}`)
  return result.stdout
}

/**
 * Packs `packages/<name>` into `destination` with `pnpm pack` and reads the tarball back.
 * Returns its path, its file list, its packed package.json and what is wrong with it (an empty
 * list when it is ready to install); `problems` names a failed `pnpm pack` as well.
 */
export function packTarball(root, name, destination) {
  const directory = join(root, 'packages', name)
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'))
  const pnpm = pnpmCommand()
  const packed = spawnSync(
    pnpm.command,
    [...pnpm.prefix, 'pack', '--pack-destination', destination],
    {
      cwd: directory,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: 120_000,
      env: { ...process.env, NO_COLOR: '1' },
    },
  )
  const tarball = join(destination, tarballName(manifest))
  if (packed.status !== 0 || !existsSync(tarball)) {
    const output = `${packed.stderr ?? ''}${packed.stdout ?? ''}${packed.error ?? ''}`
    return { name: manifest.name, tarball, problems: [`pnpm pack failed\n${output}`] }
  }
  const listing = tar(['-tzf', tarball]).split('\n').filter(Boolean)
  const packedManifest = JSON.parse(tar(['-xzOf', tarball, 'package/package.json']))
  return {
    name: manifest.name,
    tarball,
    listing,
    manifest: packedManifest,
    problems: tarballProblems(listing, packedManifest),
  }
}
