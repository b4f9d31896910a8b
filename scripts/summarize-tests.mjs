#!/usr/bin/env node
// Checks and sums the Vitest reports (.vitest-report*.json, written by vitest.report.ts) of every
// workspace package into the one plain line the CI reads: "N passed, N failed". The line counts
// what ran; everything that means tests did not run counts as a failure and is printed above
// it, with what to do:
// - a skipped or todo test, or a test a failed hook never reached;
// - a test file or suite that failed outside its tests (load error, beforeAll/afterAll);
// - an error outside any test (a browser that did not launch), an interrupted run;
// - a workspace package with a `test` script but no report, or with test files but no script;
// - a Vitest project (node, edge, chromium) that ran no tests;
// - a package or project under its minimum in scripts/test-minimums.json, or missing from it.
// Every pass is checked alike: the first run writes .vitest-report.json, the CI's second run on
// Node 24 .vitest-report.node24.json (FHIR_AUTH_REPORT_SUFFIX). The exit code is 1 exactly when
// the line counts a failure.
//
// Options: --root <dir> (the workspace, default this repository), --pass <suffix> (a pass that
// must have reports, besides the first and those found), --write-minimums (rewrite the table a
// little below the first pass's counts, after adding tests: docs/testing.md).
import { existsSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import {
  checkMinimums,
  minimumsFile,
  readMinimums,
  writeMinimums,
} from './test-summary/minimums.mjs'
import { passesIn, problem, readPackageRun } from './test-summary/report.mjs'
import { workspacePackages } from './test-summary/workspace.mjs'

const { values: options } = parseArgs({
  options: {
    root: { type: 'string', default: new URL('..', import.meta.url).pathname },
    pass: { type: 'string', multiple: true, default: [] },
    'write-minimums': { type: 'boolean', default: false },
  },
})
const root = resolve(options.root)

const packages = workspacePackages(root)
const testing = packages.filter((workspacePackage) => workspacePackage.tests)
const problems = []
for (const workspacePackage of packages) {
  if (!workspacePackage.tests && workspacePackage.testFiles.length > 0) {
    problems.push(
      problem(
        workspacePackage.name,
        `has test files (${workspacePackage.testFiles[0]}, …) but no \`test\` script in ${workspacePackage.path}/package.json: add "test": "vitest run" and an entry in ${minimumsFile}`,
      ),
    )
  }
}

const passes = new Set(['', ...options.pass])
for (const workspacePackage of testing) {
  for (const pass of passesIn(readdirSync(workspacePackage.directory))) passes.add(pass)
}

const runs = []
for (const pass of passes) {
  for (const workspacePackage of testing) {
    const { run, problems: found } = readPackageRun(root, workspacePackage, pass)
    problems.push(...found)
    if (run) runs.push({ name: workspacePackage.name, pass, run })
  }
}

if (existsSync(resolve(root, minimumsFile))) {
  problems.push(...checkMinimums(readMinimums(root), testing, runs))
  if (options['write-minimums']) {
    writeMinimums(
      root,
      runs.filter((entry) => entry.pass === ''),
    )
    console.log(`wrote ${minimumsFile} from the first pass's counts`)
  }
} else {
  problems.push(problem(minimumsFile, 'is missing: the summary needs the minimum test counts'))
}

let passed = 0
let failed = 0
for (const { run } of runs) {
  passed += run.passed
  failed += run.failed
  const projects = [...run.ranByProject]
    .filter(([project]) => project !== '')
    .map(([project, ran]) => `${project} ${ran}`)
    .join(' · ')
  const counts = `${run.passed} passed, ${run.failed} failed`
  console.log(
    `  ${run.label.padEnd(46)} ${counts.padEnd(22)} ${projects ? `(${projects})` : ''}`.trimEnd(),
  )
}
if (problems.length > 0) {
  console.log(`\n${problems.length} problem(s), each counted as failed:`)
  for (const found of problems) {
    failed += found.failures
    console.log(`  ✗ ${found.subject}: ${found.message}`)
  }
  console.log('')
}
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
