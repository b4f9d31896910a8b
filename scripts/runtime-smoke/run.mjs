#!/usr/bin/env node
/**
 * `pnpm test:runtimes`: runs smoke.mjs (the built portable packages doing PKCE, JWS, X.509,
 * SMART and UDAP work) in Node, Deno and Bun, and ends with the plain line
 * "N passed, N failed" over all three.
 *
 * Deno and Bun come from the npm registry, pinned, into node_modules/.cache/fhir-auth-runtimes
 * (installed on first use with `npm install`; their binaries arrive as platform packages in
 * optionalDependencies, so no install script and no other download is needed). Set DENO_BIN or
 * BUN_BIN to use other binaries. Needs `pnpm build` first (the smoke test imports `dist`).
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const smoke = fileURLToPath(new URL('./smoke.mjs', import.meta.url))
const runtimeDirectory = join(root, 'node_modules', '.cache', 'fhir-auth-runtimes')
/** The npm packages of the runtimes, pinned so every CI run tests the same versions. */
const runtimePackages = { deno: 'deno@2.9.6', bun: 'bun@1.4.5' }

const builtEntries = ['core', 'smart', 'udap', 'crypto-webcrypto'].map((name) =>
  join(root, 'packages', name, 'dist', 'index.js'),
)
const missing = builtEntries.filter((entry) => !existsSync(entry))
if (missing.length > 0) {
  console.error(`not built (run pnpm build first): ${missing.join(', ')}`)
  console.log('0 passed, 1 failed')
  process.exit(1)
}

/** Installs the pinned runtimes from npm unless every one is already there. */
function installRuntimes() {
  const wanted = Object.keys(runtimePackages).filter(
    (name) => !process.env[`${name.toUpperCase()}_BIN`] && !existsSync(binaryOf(name)),
  )
  if (wanted.length === 0) return
  const started = Date.now()
  const result = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      runtimeDirectory,
      '--no-audit',
      '--no-fund',
      '--no-save',
      ...wanted.map((name) => runtimePackages[name]),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  )
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  console.log(`installed ${wanted.map((name) => runtimePackages[name]).join(', ')} in ${seconds} s`)
  if (result.status !== 0) console.error(`npm install exited with ${result.status}`)
}

function binaryOf(name) {
  return (
    process.env[`${name.toUpperCase()}_BIN`] ?? join(runtimeDirectory, 'node_modules', '.bin', name)
  )
}

installRuntimes()

const runs = [
  { runtime: 'node', command: process.execPath, args: [smoke] },
  { runtime: 'deno', command: binaryOf('deno'), args: ['run', `--allow-read=${root}`, smoke] },
  { runtime: 'bun', command: binaryOf('bun'), args: [smoke] },
]

let passed = 0
let failed = 0
for (const { runtime, command, args } of runs) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', timeout: 120_000 })
  process.stdout.write(result.stdout ?? '')
  if (result.stderr) process.stderr.write(result.stderr)
  const summary = /: (\d+) passed, (\d+) failed$/m.exec(result.stdout ?? '')
  if (result.status === 0 && summary) {
    passed += Number(summary[1])
    failed += Number(summary[2])
  } else {
    // A runtime that does not start or does not finish counts as one failure.
    console.log(
      `${runtime}: did not complete (${result.error?.message ?? `exit ${result.status}`})`,
    )
    passed += summary ? Number(summary[1]) : 0
    failed += summary ? Math.max(Number(summary[2]), 1) : 1
  }
}
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
