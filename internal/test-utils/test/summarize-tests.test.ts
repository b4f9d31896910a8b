/**
 * The CI summary (scripts/summarize-tests.mjs) against workspaces built from real Vitest reports
 * (fixtures/summarize-tests, made by its generate.mjs): every way a run can hide tests must fail
 * the summary, say why, and show in the last line, whose failure count and the exit code agree.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

const summarizer = fileURLToPath(new URL('../../../scripts/summarize-tests.mjs', import.meta.url))
const fixtures = fileURLToPath(new URL('./fixtures/summarize-tests/', import.meta.url))

type Fixture =
  | 'healthy'
  | 'failing-hook'
  | 'skipped-and-todo'
  | 'focused'
  | 'broken-import'
  | 'unhandled-rejection'
  | 'chromium-down'
  | 'empty-project'
  | 'no-test-files'
  | 'pass-node24'
  | 'vitest-plain-json'

interface PackageSpec {
  /** Report fixture per pass (`''` is the first run, `node24` the second). */
  readonly reports?: Readonly<Record<string, Fixture>>
  /** Whether package.json has a `test` script (default true). */
  readonly testScript?: boolean
  /** Test files to create under `test/`. */
  readonly testFiles?: readonly string[]
}

interface WorkspaceSpec {
  readonly packages: Readonly<Record<string, PackageSpec>>
  /** The table; `$`-prefixed keys are comments. */
  readonly minimums?: Readonly<Record<string, number | string | Readonly<Record<string, number>>>>
}

interface Summary {
  readonly exitCode: number | null
  readonly output: string
  readonly lastLine: string
  readonly passed: number
  readonly failed: number
  readonly root: string
}

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** Writes a workspace of `@fx/<dir>` packages with the given reports and runs the summary. */
function summarize(spec: WorkspaceSpec, args: readonly string[] = []): Summary {
  const root = mkdtempSync(join(tmpdir(), 'fhir-auth-summary-'))
  roots.push(root)
  writeFileSync(join(root, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n')
  mkdirSync(join(root, 'scripts'))
  if (spec.minimums !== undefined) {
    writeFileSync(join(root, 'scripts/test-minimums.json'), JSON.stringify(spec.minimums))
  }
  for (const [directory, packageSpec] of Object.entries(spec.packages)) {
    const packageRoot = join(root, 'packages', directory)
    mkdirSync(join(packageRoot, 'test'), { recursive: true })
    const scripts = packageSpec.testScript === false ? {} : { test: 'vitest run' }
    writeFileSync(
      join(packageRoot, 'package.json'),
      JSON.stringify({ name: `@fx/${directory}`, scripts }),
    )
    for (const file of packageSpec.testFiles ?? []) {
      writeFileSync(join(packageRoot, 'test', file), '')
    }
    for (const [pass, fixture] of Object.entries(packageSpec.reports ?? {})) {
      const text = readFileSync(join(fixtures, `${fixture}.report.json`), 'utf8')
      const fileName = pass === '' ? '.vitest-report.json' : `.vitest-report.${pass}.json`
      writeFileSync(join(packageRoot, fileName), text.replaceAll('<root>', packageRoot))
    }
  }
  const run = spawnSync(process.execPath, [summarizer, '--root', root, ...args], {
    encoding: 'utf8',
  })
  const output = run.stdout + run.stderr
  const lastLine = run.stdout.trimEnd().split('\n').at(-1) ?? ''
  const counts = /^(\d+) passed, (\d+) failed$/.exec(lastLine)
  expect(counts, `last line: ${lastLine}`).not.toBeNull()
  const passed = Number(counts?.[1])
  const failed = Number(counts?.[2])
  // The exit code agrees with the line, whatever the case.
  expect(run.status).toBe(failed > 0 ? 1 : 0)
  return { exitCode: run.status, output, lastLine, passed, failed, root }
}

const healthyTable = { '@fx/a': 2 }

describe('summarize-tests: an honest run', () => {
  it('passes with a report per package at or above its minimum, and counts what ran', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'healthy' } } },
      minimums: healthyTable,
    })
    expect(summary.exitCode).toBe(0)
    expect(summary.lastLine).toBe('2 passed, 0 failed')
    expect(summary.output).not.toContain('problem')
  })

  it('checks and sums both passes (the CI runs the suite again on Node 24)', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'healthy', node24: 'pass-node24' } } },
      minimums: healthyTable,
    })
    expect(summary.lastLine).toBe('4 passed, 0 failed')
    expect(summary.output).toContain('@fx/a [node24]')
  })

  it('counts each runtime project of a package and checks its minimum', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'empty-project' } } },
      minimums: { '@fx/a': { unit: 2, browser: 1 } },
    })
    expect(summary.output).toMatch(/\(unit 2 · browser 0\)/)
  })
})

describe('summarize-tests: each way of hiding tests fails, saying why', () => {
  it('a beforeAll that failed: its tests read as skipped', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'failing-hook' } } },
      minimums: healthyTable,
    })
    expect(summary.output).toContain(
      'a hook of this suite failed, so its tests did not run: the sandbox did not start: EADDRINUSE',
    )
    expect(summary.output).toMatch(/test\/server\.test\.ts: 2 test\(s\) did not run/)
    expect(summary.passed).toBe(2)
    expect(summary.failed).toBe(3)
  })

  it('a skipped and a todo test', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'skipped-and-todo' } } },
      minimums: { '@fx/a': 1 },
    })
    expect(summary.output).toContain('skipped: divides')
    expect(summary.output).toContain('todo: subtracts')
    expect(summary.lastLine).toBe('1 passed, 2 failed')
  })

  it('a committed .only (allowOnly is false in the shared config)', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'focused' } } },
      minimums: { '@fx/a': 1 },
    })
    expect(summary.output).toContain('skipped: multiplies')
    expect(summary.failed).toBeGreaterThanOrEqual(2)
  })

  it('a test file that does not load', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'broken-import' } } },
      minimums: healthyTable,
    })
    expect(summary.output).toMatch(/test\/broken\.test\.ts: the file failed.*does-not-exist/)
    expect(summary.lastLine).toBe('2 passed, 1 failed')
  })

  it('an error outside any test (an unhandled rejection)', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'unhandled-rejection' } } },
      minimums: healthyTable,
    })
    expect(summary.output).toContain('error outside any test')
    expect(summary.output).toContain('rejected after the test ended')
    expect(summary.lastLine).toBe('2 passed, 1 failed')
  })

  it('Chromium failing to launch: the chromium project is empty', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'chromium-down' } } },
      minimums: { '@fx/a': { node: 2, edge: 2, chromium: 2 } },
    })
    expect(summary.output).toContain('@fx/a chromium: ran no tests')
    expect(summary.output).toMatch(/error outside any test.*\/nonexistent\/chromium/)
    expect(summary.passed).toBe(4)
    expect(summary.failed).toBe(2)
  })

  it('a project whose file pattern matches nothing', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'empty-project' } } },
      minimums: { '@fx/a': { unit: 2, browser: 1 } },
    })
    expect(summary.output).toContain('@fx/a browser: ran no tests')
    expect(summary.lastLine).toBe('2 passed, 1 failed')
  })

  it('a package that ran no test file (--passWithNoTests)', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'no-test-files' } } },
      minimums: { '@fx/a': 1 },
    })
    expect(summary.output).toContain('@fx/a (no project): ran no tests')
    expect(summary.lastLine).toBe('0 passed, 1 failed')
  })

  it('a package without a report', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'healthy' } }, b: {} },
      minimums: { ...healthyTable, '@fx/b': 2 },
    })
    expect(summary.output).toContain(
      '@fx/b: no report (packages/b/.vitest-report.json): its tests did not run or the run did not finish; run `pnpm --filter @fx/b test`',
    )
    expect(summary.lastLine).toBe('2 passed, 1 failed')
  })

  it('a package without its Node 24 report when the other packages have one', () => {
    const summary = summarize({
      packages: {
        a: { reports: { '': 'healthy', node24: 'pass-node24' } },
        b: { reports: { '': 'healthy' } },
      },
      minimums: { ...healthyTable, '@fx/b': 2 },
    })
    expect(summary.output).toContain(
      '@fx/b [node24]: no report (packages/b/.vitest-report.node24.json)',
    )
    expect(summary.lastLine).toBe('6 passed, 1 failed')
  })

  it('a whole pass missing, when the CI names it (--pass node24)', () => {
    const summary = summarize(
      { packages: { a: { reports: { '': 'healthy' } } }, minimums: healthyTable },
      ['--pass', 'node24'],
    )
    expect(summary.output).toContain('@fx/a [node24]: no report')
    expect(summary.lastLine).toBe('2 passed, 1 failed')
  })

  it('a package with test files but no test script', () => {
    const summary = summarize({
      packages: {
        a: { reports: { '': 'healthy' } },
        b: { testScript: false, testFiles: ['x.test.ts'] },
      },
      minimums: healthyTable,
    })
    expect(summary.output).toContain(
      '@fx/b: has test files (packages/b/test/x.test.ts, …) but no `test` script',
    )
    expect(summary.failed).toBe(1)
  })

  it('a report not written by the workspace reporter (plain Vitest JSON)', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'vitest-plain-json' } } },
      minimums: healthyTable,
    })
    expect(summary.output).toContain('was not written by the workspace reporter')
    expect(summary.lastLine).toBe('0 passed, 1 failed')
  })
})

describe('summarize-tests: the table of minimum test counts', () => {
  it('fails a package under its minimum: a test file was lost', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'healthy' } } },
      minimums: { '@fx/a': 5 },
    })
    expect(summary.output).toContain(
      '@fx/a: ran 2 tests, fewer than its minimum 5 in scripts/test-minimums.json',
    )
    expect(summary.lastLine).toBe('2 passed, 1 failed')
  })

  it('fails a project under its minimum', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'chromium-down' } } },
      minimums: { '@fx/a': { node: 3, edge: 2, chromium: 2 } },
    })
    expect(summary.output).toContain('@fx/a node: ran 2 tests, fewer than its minimum 3')
  })

  it('fails a package missing from the table and says what to add', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'healthy' } }, b: { reports: { '': 'chromium-down' } } },
      minimums: healthyTable,
    })
    expect(summary.output).toContain(
      '@fx/b: has no entry in scripts/test-minimums.json: add "@fx/b": {"node":1,"edge":1,"chromium":1}',
    )
  })

  it('fails a table entry for a package that does not test, and a project that did not run', () => {
    const summary = summarize({
      packages: { a: { reports: { '': 'healthy' } } },
      minimums: { '@fx/a': { '': 2, chromium: 1 }, '@fx/gone': 3 },
    })
    expect(summary.output).toContain(
      '@fx/gone: is in scripts/test-minimums.json but is not a workspace package with a `test` script: remove its entry',
    )
    expect(summary.output).toContain('@fx/a chromium: project did not run')
    expect(summary.failed).toBe(2)
  })

  it('fails without a table', () => {
    const summary = summarize({ packages: { a: { reports: { '': 'healthy' } } } })
    expect(summary.output).toContain('scripts/test-minimums.json: is missing')
  })

  it('--write-minimums sets each minimum a little below the counts of the first pass', () => {
    const summary = summarize(
      {
        packages: { a: { reports: { '': 'healthy' } }, b: { reports: { '': 'chromium-down' } } },
        minimums: { $comment: 'kept', '@fx/a': 1 },
      },
      ['--write-minimums'],
    )
    const table = JSON.parse(readFileSync(join(summary.root, 'scripts/test-minimums.json'), 'utf8'))
    expect(table).toEqual({
      $comment: 'kept',
      '@fx/a': 1,
      '@fx/b': { node: 1, edge: 1, chromium: 1 },
    })
  })
})
