/**
 * `pnpm bench`: fhir-auth's benchmarks with budgets, in one command.
 *
 * Every figure is measured against its baseline in the same run (interleaved, warmed up,
 * several rounds, median and p95), so load from other processes cancels out of the ratios.
 * Prints a table (figure, goal, measured, verdict) and, with `--json`, a machine-readable
 * report. Exits non-zero only when a hard budget is broken (a SMART browser app loading more
 * than its byte limit, or pkijs, asn1js, node-forge or UDAP code) or a measurement crashes: missed
 * goals are findings, not failures.
 */
import { availableParallelism, loadavg } from 'node:os'
import { runBackendTokenSection } from './backend-token/backend-token-section.js'
import { buildPublishedPackages } from './build-packages.js'
import { runBundleSection } from './bundle/bundle-section.js'
import { parseBenchArguments, type SectionName, usage } from './cli-arguments.js'
import { runColdImportSection } from './cold-import/cold-import-section.js'
import { runCryptoSection } from './crypto/crypto-section.js'
import { runSessionFleetSection } from './fleet/session-fleet-section.js'
import { runFootprintSection } from './footprint/footprint-section.js'
import type { SectionReport, Verdict } from './report/figure.js'
import { renderTable } from './report/render-table.js'
import { runScopesSection } from './scopes/scopes-section.js'
import { runSessionSection } from './session/session-section.js'
import { runTokenReuseSection } from './token-reuse/token-reuse-section.js'
import { runUdapSection } from './udap/udap-section.js'
import { runWebSection } from './web/web-section.js'

const sectionRunners: Readonly<Record<SectionName, () => Promise<SectionReport>>> = {
  bundle: runBundleSection,
  udap: runUdapSection,
  crypto: runCryptoSection,
  token: runBackendTokenSection,
  session: runSessionSection,
  scopes: runScopesSection,
  fleet: runSessionFleetSection,
  web: () => runWebSection(),
  reuse: runTokenReuseSection,
  import: runColdImportSection,
  footprint: runFootprintSection,
}

/** Above this load average per core, the report warns that absolute figures are inflated. */
const busyLoadPerCore = 1.5

/** Sections that measure the built `dist` rather than the sources. */
const sectionsNeedingBuild: readonly SectionName[] = ['import', 'footprint']

function progress(message: string): void {
  process.stderr.write(`${message}\n`)
}

function crashedSection(name: SectionName, error: unknown): SectionReport {
  const message = error instanceof Error ? error.message : String(error)
  return {
    id: name,
    title: `${name} (crashed)`,
    figures: [
      {
        id: `${name}.error`,
        label: `${name}: measurement crashed`,
        goal: '—',
        measured: message.split('\n')[0] ?? message,
        verdict: 'error',
        values: { message },
      },
    ],
    details: message.split('\n'),
  }
}

async function main(): Promise<number> {
  const options = parseBenchArguments(process.argv.slice(2))
  if (options.help) {
    console.log(usage)
    return 0
  }
  const started = performance.now()
  const loadAtStart = loadavg()[0] ?? 0
  const reports: SectionReport[] = []
  let buildError: unknown
  if (options.build && options.sections.some((name) => sectionsNeedingBuild.includes(name))) {
    progress('building @fhir-auth/client and its dependencies (turbo, cached)…')
    try {
      await buildPublishedPackages()
    } catch (error) {
      buildError = error
    }
  }
  for (const name of options.sections) {
    const sectionStarted = performance.now()
    progress(`measuring ${name}…`)
    if (buildError !== undefined && sectionsNeedingBuild.includes(name)) {
      reports.push(crashedSection(name, buildError))
      continue
    }
    try {
      reports.push(await sectionRunners[name]())
    } catch (error) {
      reports.push(crashedSection(name, error))
    }
    progress(`  ${name} took ${((performance.now() - sectionStarted) / 1000).toFixed(1)} s`)
  }
  const verdicts = reports.flatMap((report) => report.figures.map((figure) => figure.verdict))
  const exitCode = verdicts.some((verdict) => verdict === 'FAIL' || verdict === 'error') ? 1 : 0
  const durationSeconds = (performance.now() - started) / 1000
  const busyWarning = machineBusyWarning(Math.max(loadAtStart, loadavg()[0] ?? 0))
  const table = [renderTable(reports), '', summaryLine(verdicts, durationSeconds), busyWarning]
    .filter((line) => line !== undefined)
    .join('\n')
  if (options.json) {
    process.stderr.write(`${table}\n`)
    const report = {
      generatedAt: new Date().toISOString(),
      environment: {
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        parallelism: availableParallelism(),
        loadAverage: loadavg().map((load) => Math.round(load * 100) / 100),
        busy: busyWarning !== undefined,
      },
      durationSeconds: Math.round(durationSeconds * 10) / 10,
      exitCode,
      sections: reports,
    }
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  } else {
    console.log(table)
  }
  return exitCode
}

/**
 * A warning when other processes kept the machine busy during the run. Interleaving keeps
 * ratios fair, but figures with an absolute goal (milliseconds) and every p95 are inflated.
 */
function machineBusyWarning(load: number): string | undefined {
  const cores = availableParallelism()
  if (load <= busyLoadPerCore * cores) return undefined
  return `warning: the machine was busy (load ${load.toFixed(1)} on ${cores} cores): absolute times and p95s are inflated and ratios are noisier; re-run on a quiet machine before acting on a miss`
}

function summaryLine(verdicts: readonly Verdict[], durationSeconds: number): string {
  const counts = new Map<Verdict, number>()
  for (const verdict of verdicts) counts.set(verdict, (counts.get(verdict) ?? 0) + 1)
  const parts = [...counts].map(([verdict, count]) => `${count} ${verdict}`)
  const load = loadavg()[0]?.toFixed(2) ?? '?'
  return `${parts.join(', ')} in ${durationSeconds.toFixed(0)} s (Node ${process.version}, ${availableParallelism()} cores, load ${load})`
}

try {
  process.exitCode = await main()
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 2
}
