import { describeDistribution, distributionValues } from '../report/distribution.js'
import type { Figure, SectionReport } from '../report/figure.js'
import { formatMilliseconds, formatRatio, roundTo } from '../report/format.js'
import { type ColdImportResult, measureColdImports } from './measure-cold-import.js'

const processesPerTarget = 11
const baseline = 'jose'
const client = '@fhir-auth/client'
const cryptoNode = '@fhir-auth/crypto-node'
/** Loaded only when a PKCS#12 file is opened, never by an import. */
const lazyPackages = ['node-forge', 'pkijs', 'asn1js']

/**
 * Figure 3: cold import of the built packages in fresh `node` processes (median of 11 per
 * target, interleaved): `@fhir-auth/client` against `jose`, and `@fhir-auth/crypto-node`,
 * whose import must not load node-forge.
 */
export async function runColdImportSection(): Promise<SectionReport> {
  const results = await measureColdImports([baseline, client, cryptoNode], processesPerTarget)
  const byName = (specifier: string): ColdImportResult => {
    const result = results.find((candidate) => candidate.specifier === specifier)
    if (result === undefined) throw new Error(`no cold-import result for ${specifier}`)
    return result
  }
  const jose = byName(baseline)
  const figures: Figure[] = [
    importFigure('import.jose', byName(baseline), undefined, 'baseline'),
    importFigure('import.client', byName(client), jose, 'no crypto backend, node-forge or pkijs'),
    importFigure('import.cryptoNode', byName(cryptoNode), jose, 'node-forge not loaded'),
  ]
  const details = results.map(
    (result) =>
      `${result.specifier}: ${result.loaded.files} files from ${result.loaded.packages.join(', ')}; built-ins ${result.loaded.builtins.join(', ') || 'none'}; whole process ${describeDistribution(result.processMs)}`,
  )
  details.push(
    'import = `await import()` timed inside a fresh node process (dist, no source condition)',
  )
  return { id: 'import', title: 'Cold import (fresh node process, built dist)', figures, details }
}

function importFigure(
  id: string,
  result: ColdImportResult,
  baselineResult: ColdImportResult | undefined,
  goal: string,
): Figure {
  const forbidden = result.loaded.packages.filter((name) => lazyPackages.includes(name))
  const ratio =
    baselineResult === undefined
      ? undefined
      : result.importMs.median / baselineResult.importMs.median
  const comparison = ratio === undefined ? '' : `; ${formatRatio(ratio)} jose`
  const loadedNote = forbidden.length === 0 ? '' : `; loads ${forbidden.join(', ')}`
  return {
    id,
    label: `cold import ${result.specifier}`,
    goal: goal === 'baseline' ? '—' : goal,
    measured: `median ${formatMilliseconds(result.importMs.median)}, p95 ${formatMilliseconds(result.importMs.p95)}${comparison}; ${result.loaded.files} files${loadedNote}`,
    verdict: goal === 'baseline' ? 'info' : forbidden.length === 0 ? 'pass' : 'miss',
    values: {
      ...distributionValues(result.importMs),
      ratioToJose: ratio === undefined ? null : roundTo(ratio, 3),
      files: result.loaded.files,
      packages: [...result.loaded.packages],
      builtins: [...result.loaded.builtins],
    },
  }
}
