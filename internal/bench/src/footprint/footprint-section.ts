import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SectionReport } from '../report/figure.js'
import { runCommand } from '../run-command.js'
import { repositoryRoot } from '../workspace-paths.js'

/** fhirclient's footprint with npm 11 (smart-anchors.md §C.1), quoted, not re-measured. */
const fhirclient = { packages: 706, megabytes: 301 }

/** The packaging check owns packing and installing; the bench reuses its measurement. */
const packageCheckScript = join(repositoryRoot, 'scripts', 'check-packages.mjs')

/** One install as `scripts/check-packages.mjs --report` records it. */
interface InstallFootprint {
  readonly packages: number
  /** MiB on disk (blocks × 512 / 1024²), as `du -m` counts. */
  readonly megabytes: number
  readonly names: readonly string[]
}

/**
 * Figure 6: install footprint of `@fhir-auth/client`. Reuses the packaging check
 * (`scripts/check-packages.mjs`, owned by the packaging work) rather than packing twice: it
 * `pnpm pack`s the six packages from their built `dist`, `npm install`s the client's tarballs
 * into an empty folder (node-forge, pkijs, asn1js and their dependencies from the registry) and
 * counts packages and size on disk; it also installs `@fhir-auth/smart` alone. Its other checks
 * (publint, attw, smoke tests) run too and are its business: a failing packaging check does not
 * fail this figure as long as the installs were measured.
 *
 * @throws Error when the script is missing or its report has no client footprint.
 */
export async function runFootprintSection(): Promise<SectionReport> {
  if (!existsSync(packageCheckScript)) {
    throw new Error(`${packageCheckScript} is missing: the footprint figure reuses it`)
  }
  const scratch = await mkdtemp(join(tmpdir(), 'fhir-auth-bench-footprint-'))
  try {
    const reportPath = join(scratch, 'package-check.json')
    const run = await runCommand(process.execPath, [packageCheckScript, '--report', reportPath], {
      cwd: repositoryRoot,
      timeoutMs: 240_000,
      acceptFailure: true,
    })
    const report = existsSync(reportPath)
      ? (JSON.parse(await readFile(reportPath, 'utf8')) as {
          footprint?: { client?: InstallFootprint; smart?: InstallFootprint }
          failures?: readonly string[]
        })
      : {}
    const client = report.footprint?.client
    if (client === undefined) {
      const ending = `${run.stdout}${run.stderr}`.trim().split('\n').slice(-10).join('\n')
      throw new Error(`scripts/check-packages.mjs measured no client install:\n${ending}`)
    }
    const smart = report.footprint?.smart
    const packageCheckFailures = report.failures?.length ?? 0
    return {
      id: 'footprint',
      title: 'Install footprint (npm, fresh folder, via scripts/check-packages.mjs)',
      figures: [
        {
          id: 'footprint.client',
          label: 'install @fhir-auth/client (npm, packed tarballs)',
          goal: `—; fhirclient ${fhirclient.packages} packages / ~${fhirclient.megabytes} MB`,
          measured: `${client.packages} packages, ${client.megabytes.toFixed(1)} MB on disk`,
          verdict: 'info',
          values: {
            packages: client.packages,
            megabytes: client.megabytes,
            names: [...client.names],
          },
        },
        ...(smart === undefined
          ? []
          : [
              {
                id: 'footprint.smart',
                label: 'install @fhir-auth/smart alone',
                goal: '—',
                measured: `${smart.packages} packages, ${smart.megabytes.toFixed(1)} MB on disk`,
                verdict: 'info' as const,
                values: {
                  packages: smart.packages,
                  megabytes: smart.megabytes,
                  names: [...smart.names],
                },
              },
            ]),
      ],
      details: [
        `client install: ${client.names.join(', ')}`,
        `MB = MiB on disk (blocks × 512 / 1024², as du -m); fhirclient ${fhirclient.packages} packages / ~${fhirclient.megabytes} MB quoted from research/smart-anchors.md §C.1 (npm 11, --ignore-scripts), not re-measured`,
        packageCheckFailures === 0
          ? 'scripts/check-packages.mjs: all its checks passed'
          : `scripts/check-packages.mjs reported ${packageCheckFailures} failed check(s) of its own (run pnpm check:packages); the installs above were measured`,
      ],
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}
