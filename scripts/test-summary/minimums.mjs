// The committed table of minimum test counts (scripts/test-minimums.json): a package or project
// that runs fewer tests than its minimum lost a test file (a pattern that stopped matching, a
// file that no longer loads) without anything failing. See docs/testing.md.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { problem } from './report.mjs'

export const minimumsFile = 'scripts/test-minimums.json'

/** Fraction of today's count a new minimum is set to: a little below, so a lost file shows. */
const minimumFraction = 0.98

/**
 * Reads the table: `{ "<package name>": <minimum> | { "<project>": <minimum>, … } }`. A bare
 * number is the minimum of a package without Vitest projects.
 *
 * @param {string} root
 * @returns {Record<string, Record<string, number>>} package name → project name → minimum
 */
export function readMinimums(root) {
  const table = JSON.parse(readFileSync(join(root, minimumsFile), 'utf8'))
  const minimums = {}
  for (const [name, entry] of Object.entries(table)) {
    if (name.startsWith('$')) continue
    minimums[name] = typeof entry === 'number' ? { '': entry } : { ...entry }
  }
  return minimums
}

/**
 * Compares each package's runs with its minimums, and the table with the workspace.
 *
 * @param {Record<string, Record<string, number>>} minimums
 * @param {import('./workspace.mjs').WorkspacePackage[]} testingPackages
 * @param {{ name: string, run: import('./report.mjs').PackageRun }[]} runs
 * @returns {import('./report.mjs').Problem[]}
 */
export function checkMinimums(minimums, testingPackages, runs) {
  const problems = []
  const names = new Set(testingPackages.map((workspacePackage) => workspacePackage.name))
  for (const name of Object.keys(minimums)) {
    if (!names.has(name)) {
      problems.push(
        problem(
          name,
          `is in ${minimumsFile} but is not a workspace package with a \`test\` script: remove its entry`,
        ),
      )
    }
  }
  for (const { name, run } of runs) {
    const expected = minimums[name]
    if (expected === undefined) {
      problems.push(
        problem(
          run.label,
          `has no entry in ${minimumsFile}: add ${JSON.stringify(name)}: ${JSON.stringify(suggestedEntry(run.ranByProject))} (or run \`node scripts/summarize-tests.mjs --write-minimums\` after a full test run)`,
        ),
      )
      continue
    }
    for (const [project, minimum] of Object.entries(expected)) {
      const ran = run.ranByProject.get(project)
      const subject = `${run.label}${project ? ` ${project}` : ''}`
      if (ran === undefined) {
        problems.push(
          problem(
            subject,
            `project did not run (its minimum in ${minimumsFile} is ${minimum}); if it was removed on purpose, remove it from the table`,
          ),
        )
      } else if (ran > 0 && ran < minimum) {
        problems.push(
          problem(
            subject,
            `ran ${ran} tests, fewer than its minimum ${minimum} in ${minimumsFile}: a test file was lost (no longer matched or loaded). If tests were removed on purpose, lower the minimum in the same commit`,
          ),
        )
      }
    }
    for (const project of run.ranByProject.keys()) {
      if (!(project in expected)) {
        problems.push(
          problem(
            `${run.label} ${project || '(no project)'}`,
            `project has no minimum in ${minimumsFile}: add ${JSON.stringify(project)}: ${suggestedMinimum(run.ranByProject.get(project) ?? 0)} to the entry of ${JSON.stringify(name)}`,
          ),
        )
      }
    }
  }
  return problems
}

/** Rewrites the table from the first pass's runs: each minimum a little below today's count. */
export function writeMinimums(root, runs) {
  const table = JSON.parse(readFileSync(join(root, minimumsFile), 'utf8'))
  const next = Object.fromEntries(Object.entries(table).filter(([name]) => name.startsWith('$')))
  for (const { name, run } of runs) next[name] = suggestedEntry(run.ranByProject)
  writeFileSync(join(root, minimumsFile), `${JSON.stringify(next, null, 2)}\n`)
}

function suggestedEntry(ranByProject) {
  const projects = [...ranByProject.keys()]
  if (projects.length === 1 && projects[0] === '') return suggestedMinimum(ranByProject.get(''))
  return Object.fromEntries(
    projects.map((project) => [project, suggestedMinimum(ranByProject.get(project))]),
  )
}

function suggestedMinimum(count) {
  return Math.max(1, Math.floor(count * minimumFraction))
}
