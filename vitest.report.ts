/**
 * The JSON report every package's test run writes, which `scripts/summarize-tests.mjs` sums.
 *
 * It is Vitest's own JSON report plus what that report leaves out and the summary needs to tell
 * an honest run from one that hid tests:
 * - `projects`: the names of the Vitest projects the run was configured with (`node`, `edge`,
 *   `chromium` for the portable packages; `''` for a package without projects), so a project
 *   that ran no test file shows up as empty instead of vanishing from the sum;
 * - `testResults[].project`: the project each test file ran in (one file runs in three);
 * - `suiteErrors`: the errors of failed files and suites: a file that could not be loaded, a
 *   `beforeAll` or `afterAll` that threw (Vitest then marks the suite's tests skipped, and its
 *   report keeps only a file-level message);
 * - `unhandledErrors`: errors outside any test (a browser that failed to launch, a rejection
 *   after its test ended). They fail the run but appear nowhere else in the report;
 * - `runEndReason`: how the run ended (`passed`, `failed` or `interrupted`).
 *
 * @see scripts/summarize-tests.mjs for the checks made on it, and docs/testing.md.
 */
import type { SerializedError } from 'vitest'
import { JsonReporter, type TestModule, type TestRunEndReason, type Vitest } from 'vitest/node'

/** The error of a test file or suite that failed outside its tests (load error, hook). */
interface SuiteError {
  readonly project: string
  readonly file: string
  /** The suite's name path (`describe` titles joined by ` > `); empty for the file itself. */
  readonly suite: string
  readonly message: string
}

/** What this reporter adds to Vitest's JSON report. */
interface ReportAdditions {
  readonly projects: readonly string[]
  readonly modules: readonly { readonly project: string }[]
  readonly suiteErrors: readonly SuiteError[]
  readonly unhandledErrors: readonly { readonly name: string; readonly message: string }[]
  readonly runEndReason: TestRunEndReason | undefined
}

export class WorkspaceJsonReporter extends JsonReporter {
  private additions: ReportAdditions | undefined

  override async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError> = [],
    reason?: TestRunEndReason,
  ): Promise<void> {
    const vitest: Vitest = this.ctx
    this.additions = {
      projects: vitest.projects.map((project) => project.name),
      modules: testModules.map((module) => ({ project: module.project.name })),
      suiteErrors: testModules.flatMap(suiteErrorsOf),
      unhandledErrors: unhandledErrors.map((error) => ({
        name: String(error.name ?? 'Error'),
        message: String(error.message ?? ''),
      })),
      runEndReason: reason,
    }
    await super.onTestRunEnd(testModules)
  }

  override async writeReport(report: string): Promise<void> {
    const additions = this.additions
    if (additions === undefined) return super.writeReport(report)
    const data = JSON.parse(report) as { testResults: Record<string, unknown>[] }
    // Vitest writes one test result per test module, in the order it was given the modules.
    const testResults = data.testResults.map((result, index) => ({
      ...result,
      project: additions.modules[index]?.project,
    }))
    return super.writeReport(
      JSON.stringify({
        ...data,
        testResults,
        projects: additions.projects,
        suiteErrors: additions.suiteErrors,
        unhandledErrors: additions.unhandledErrors,
        runEndReason: additions.runEndReason,
      }),
    )
  }
}

function suiteErrorsOf(module: TestModule): SuiteError[] {
  const project = module.project.name
  const file = module.moduleId
  const errors = module
    .errors()
    .map((error) => ({ project, file, suite: '', message: error.message }))
  for (const suite of module.children.allSuites()) {
    for (const error of suite.errors()) {
      errors.push({ project, file, suite: suite.fullName, message: error.message })
    }
  }
  return errors
}
