// One package's test report of one pass, read and checked: what ran, what failed, and every way
// the report shows that tests did not run (skipped or todo tests, a failed hook or file, an error
// outside any test, an interrupted run, a project without tests).
import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

/**
 * @typedef {object} Problem
 * @property {string} subject what it is about (`@fhir-auth/core [node24] chromium`)
 * @property {string} message what is wrong and what to do
 * @property {number} failures how many failures it adds to the summary line (at least 1)
 */

/**
 * @typedef {object} PackageRun
 * @property {string} label the package name, with ` [pass]` for a suffixed pass
 * @property {number} passed tests that passed
 * @property {number} failed tests that failed
 * @property {Map<string, number>} ranByProject tests that ran (passed or failed) per project
 */

/** The report file of a pass: `''` is the first run, anything else a `FHIR_AUTH_REPORT_SUFFIX`. */
export function reportFileName(pass) {
  return pass === '' ? '.vitest-report.json' : `.vitest-report.${pass}.json`
}

/** The report passes present in a package directory (`''`, `node24`, …). */
export function passesIn(fileNames) {
  const passes = []
  for (const fileName of fileNames) {
    const match = /^\.vitest-report(?:\.(.+))?\.json$/.exec(fileName)
    if (match) passes.push(match[1] ?? '')
  }
  return passes
}

/**
 * Reads and checks the report of `workspacePackage` for `pass`.
 *
 * @param {string} root
 * @param {import('./workspace.mjs').WorkspacePackage} workspacePackage
 * @param {string} pass
 * @returns {{ run: PackageRun | undefined, problems: Problem[] }}
 */
export function readPackageRun(root, workspacePackage, pass) {
  const label = pass === '' ? workspacePackage.name : `${workspacePackage.name} [${pass}]`
  const file = join(workspacePackage.directory, reportFileName(pass))
  const command = `pnpm --filter ${workspacePackage.name} test`
  const rerun =
    pass === ''
      ? `run \`${command}\` and read its output`
      : `run \`FHIR_AUTH_REPORT_SUFFIX=${pass} ${command}\` on that pass's Node and read its output`
  if (!existsSync(file)) {
    return {
      run: undefined,
      problems: [
        problem(
          label,
          `no report (${relative(root, file)}): its tests did not run or the run did not finish; ${rerun}`,
        ),
      ],
    }
  }
  let data
  try {
    data = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    return {
      run: undefined,
      problems: [problem(label, `unreadable report ${relative(root, file)}: ${error.message}`)],
    }
  }
  if (!Array.isArray(data.projects) || !Array.isArray(data.testResults)) {
    return {
      run: undefined,
      problems: [
        problem(
          label,
          `${relative(root, file)} was not written by the workspace reporter (vitest.report.ts): the package's vitest.config.ts must use packageTestConfig from vitest.shared.ts`,
        ),
      ],
    }
  }
  return checkReport(root, label, data)
}

function checkReport(root, label, data) {
  const problems = []
  const run = { label, passed: 0, failed: 0, ranByProject: new Map() }
  for (const project of data.projects) run.ranByProject.set(project, 0)
  const where = (project, file) =>
    `${label}${project ? ` ${project}` : ''} ${relative(root, file ?? '?')}`

  let failedFilesWithoutCause = 0
  for (const result of data.testResults) {
    const project = result.project ?? ''
    const notRun = []
    let failedTests = 0
    for (const test of result.assertionResults ?? []) {
      if (test.status === 'passed') run.passed++
      else if (test.status === 'failed') {
        run.failed++
        failedTests++
      } else notRun.push(`${test.status}: ${test.fullName}`)
      if (test.status === 'passed' || test.status === 'failed') {
        run.ranByProject.set(project, (run.ranByProject.get(project) ?? 0) + 1)
      }
    }
    if (notRun.length > 0) {
      problems.push(
        problem(
          where(project, result.name),
          `${notRun.length} test(s) did not run (skipped, todo or not reached): ${notRun.slice(0, 5).join('; ')}${notRun.length > 5 ? '; …' : ''}. Remove \`.skip\`/\`.todo\`, or fix the hook or file error reported for it`,
          notRun.length,
        ),
      )
    }
    const hasSuiteError = (data.suiteErrors ?? []).some(
      (error) => error.file === result.name && (error.project ?? '') === project,
    )
    if (result.status === 'failed' && failedTests === 0 && !hasSuiteError) {
      failedFilesWithoutCause++
      problems.push(
        problem(
          where(project, result.name),
          `the file failed outside its tests: ${result.message || 'no message'}`,
        ),
      )
    }
  }
  for (const error of data.suiteErrors ?? []) {
    const suite = error.suite ? ` > ${error.suite}` : ''
    problems.push(
      problem(
        `${where(error.project, error.file)}${suite}`,
        `${error.suite ? 'a hook of this suite' : 'the file'} failed, so its tests did not run: ${firstLine(error.message)}`,
      ),
    )
  }
  for (const error of data.unhandledErrors ?? []) {
    problems.push(
      problem(label, `error outside any test (${error.name}): ${firstLine(error.message)}`),
    )
  }
  const accounted = run.failed + failedFilesWithoutCause + (data.suiteErrors ?? []).length
  if ((data.numFailedTestSuites ?? 0) > 0 && accounted === 0) {
    problems.push(
      problem(
        label,
        `${data.numFailedTestSuites} suite(s) failed without a failed test or a recorded error`,
      ),
    )
  }
  if (data.runEndReason === 'interrupted') {
    problems.push(problem(label, 'the run was interrupted before it finished'))
  }
  for (const [project, ran] of run.ranByProject) {
    if (ran === 0) {
      problems.push(
        problem(
          `${label} ${project || '(no project)'}`,
          'ran no tests: its include pattern matched no file, or its runtime did not start (see the errors above)',
        ),
      )
    }
  }
  return { run, problems }
}

/** @returns {Problem} */
export function problem(subject, message, failures = 1) {
  return { subject, message, failures }
}

function firstLine(text) {
  return String(text ?? '').split('\n')[0]
}
