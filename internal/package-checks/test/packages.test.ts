/**
 * CI entry for scripts/check-packages.mjs (`pnpm check:packages`): the six published packages
 * pass publint --strict and Are-The-Types-Wrong (ESM only: only CJSResolvesToESM accepted), their
 * packed tarballs install with npm into an empty project, import and work in plain Node, and
 * bundle for the browser without node-forge, `node:` imports or eagerly loaded pkijs/asn1js.
 * npm fetches node-forge, pkijs and asn1js from the npm registry (cached after the first run).
 *
 * The budgets below fail when the install footprint or the first browser chunk grows far
 * beyond today's figures (12 packages, ~10 MB; ~14 KiB gzip), not on small drift; the figures
 * packages/client/README.md states must be the ones measured (to the nearest MB: the size on
 * disk depends a little on the file system).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ensureFreshBuild, publishedPackages } from './support/fresh-build.js'
import { runCommand } from './support/run-command.js'

const root = join(import.meta.dirname, '..', '..', '..')
const scratch = mkdtempSync(join(tmpdir(), 'fhir-auth-package-checks-test-'))

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

interface CheckReport {
  readonly failures: readonly string[]
  readonly smoke: readonly string[]
  readonly packages: Record<string, { readonly attw?: { readonly accepted: readonly unknown[] } }>
  readonly footprint: { readonly client?: { packages: number; megabytes: number } }
  readonly browserBundle: { readonly initialGzipBytes?: number; readonly problems?: string[] }
}

/** "This installs N packages (about M MB on disk)" from packages/client/README.md. */
function statedClientFootprint(): { packages: number; megabytes: number } {
  const readme = readFileSync(join(root, 'packages', 'client', 'README.md'), 'utf8')
  const match = /This installs (\d+) packages \(about (\d+(?:\.\d+)?) MB on disk\)/.exec(readme)
  expect(match, 'packages/client/README.md states its install footprint').not.toBeNull()
  return { packages: Number(match?.[1]), megabytes: Number(match?.[2]) }
}

describe('published packages, as npm users get them', () => {
  it('pack, lint, install from their tarballs, run in Node and bundle for the browser', async () => {
    await ensureFreshBuild(root)
    const reportPath = join(scratch, 'report.json')
    const run = await runCommand('node', ['scripts/check-packages.mjs', '--report', reportPath], {
      cwd: root,
      timeoutMs: 420_000,
    })
    expect(run.exitCode, run.output).toBe(0)

    const report = JSON.parse(readFileSync(reportPath, 'utf8')) as CheckReport
    expect(report.failures).toEqual([])
    expect(Object.keys(report.packages).sort()).toEqual(
      publishedPackages.map((name) => `@fhir-auth/${name}`).sort(),
    )
    for (const name of publishedPackages) {
      expect(report.smoke.some((line) => line.includes(`@fhir-auth/${name}:`))).toBe(true)
    }
    expect(report.footprint.client?.packages).toBeLessThanOrEqual(20)
    expect(report.footprint.client?.megabytes).toBeLessThan(20)
    const stated = statedClientFootprint()
    expect(stated.packages).toBe(report.footprint.client?.packages)
    expect(Math.abs(stated.megabytes - (report.footprint.client?.megabytes ?? 0))).toBeLessThan(1)
    expect(report.browserBundle.problems).toEqual([])
    expect(report.browserBundle.initialGzipBytes).toBeLessThan(40 * 1024)
  }, 450_000)
})
