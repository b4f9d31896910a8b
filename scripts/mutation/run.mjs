#!/usr/bin/env node
// `pnpm test:mutation`: StrykerJS over the security-critical files of core, smart, udap, client and web
// (each package's stryker.config.mjs), then one table of the mutation score of every file.
// Exits 1 when a file scores under the minimum (stryker-config.mjs) or a run fails. Slow (about
// twenty minutes on two cores) and not part of .ci/run; docs/testing.md says how to read it.
//
// Options: --package <name> (repeatable; default core, smart, udap, client and web).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { minimumScore } from './stryker-config.mjs'

const root = join(import.meta.dirname, '../..')
const { values } = parseArgs({ options: { package: { type: 'string', multiple: true } } })
const packages = values.package ?? ['core', 'smart', 'udap', 'client', 'web']

let failed = false
const rows = []
for (const name of packages) {
  const run = spawnSync('pnpm', ['exec', 'stryker', 'run', 'stryker.config.mjs'], {
    cwd: join(root, 'packages', name),
    stdio: 'inherit',
  })
  if (run.status !== 0) {
    console.error(`stryker failed in packages/${name} (exit ${run.status})`)
    failed = true
    continue
  }
  const report = JSON.parse(readFileSync(join(root, 'reports/mutation', `${name}.json`), 'utf8'))
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const count = (...statuses) =>
      mutants.filter((mutant) => statuses.includes(mutant.status)).length
    const detected = count('Killed', 'Timeout')
    const undetected = count('Survived', 'NoCoverage')
    const score = (100 * detected) / Math.max(1, detected + undetected)
    rows.push({ file: `${name}/${file}`, score, detected, undetected })
    if (score < minimumScore) failed = true
  }
}

console.log(`\nmutation score per file (minimum ${minimumScore} %; reports in reports/mutation/)`)
for (const row of rows) {
  const mark = row.score < minimumScore ? '✗' : ' '
  console.log(
    `${mark} ${row.file.padEnd(44)} ${row.score.toFixed(1).padStart(5)} %  (${row.detected} killed, ${row.undetected} survived)`,
  )
}
process.exit(failed ? 1 : 0)
