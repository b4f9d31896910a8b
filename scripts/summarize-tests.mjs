#!/usr/bin/env node
// Sums the Vitest JSON reports (.vitest-report*.json) of every workspace package into the one
// plain line the CI reads: "N passed, N failed". Exits non-zero when a test failed, when a
// suite failed to load, or when no report exists at all (a run that tested nothing is a failure).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const reports = []
for (const group of ['packages', 'internal', 'examples']) {
  let entries = []
  try {
    entries = readdirSync(join(root, group))
  } catch {
    continue
  }
  for (const entry of entries) {
    const directory = join(root, group, entry)
    if (!statSync(directory).isDirectory()) continue
    for (const file of readdirSync(directory)) {
      if (/^\.vitest-report.*\.json$/.test(file)) reports.push(join(directory, file))
    }
  }
}

let passed = 0
let failed = 0
let brokenSuites = 0
for (const report of reports) {
  const data = JSON.parse(readFileSync(report, 'utf8'))
  passed += data.numPassedTests ?? 0
  failed += data.numFailedTests ?? 0
  const name = report
    .slice(root.length)
    .replace(/\/\.vitest-report\.?/, ' ')
    .replace(/json$/, '')
  console.log(
    `  ${name.padEnd(48)} ${data.numPassedTests ?? 0} passed, ${data.numFailedTests ?? 0} failed`,
  )
  // A file that failed to import has no tests but counts as a failed suite.
  for (const suite of data.testResults ?? []) {
    if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) brokenSuites++
  }
}
failed += brokenSuites
if (reports.length === 0) {
  console.log('no test reports found')
  failed += 1
}
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
