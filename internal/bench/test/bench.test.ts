/**
 * Smoke test of the benchmark machinery (not of the figures: the budgets are checked by
 * internal/package-checks and `pnpm bench`). Builds one browser app (~1 s, no browser) and checks
 * the pure helpers the verdicts rest on.
 */
import type { Metafile } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { browserAppBudgets } from '../src/bundle/budgets.js'
import { buildBrowserApp } from '../src/bundle/build-browser-app.js'
import { bundleReport } from '../src/bundle/bundle-section.js'
import { staticClosure } from '../src/bundle/chunk-graph.js'
import { type ChunkGroup, chunkGroup } from '../src/bundle/chunk-group.js'
import type { BrowserAppId, BrowserAppMeasurement } from '../src/bundle/measure-browser-apps.js'
import { packageOfModule, packagesOfModules } from '../src/bundle/third-party-modules.js'
import { parseBenchArguments, sectionNames } from '../src/cli-arguments.js'
import { compareInterleaved } from '../src/measurement/interleaved-comparison.js'
import { percentile, summarize } from '../src/measurement/statistics.js'
import { verdictForLimit } from '../src/report/figure.js'
import { renderTable } from '../src/report/render-table.js'

describe('buildBrowserApp', () => {
  it('bundles the asymmetric app with the crypto backend, signing and UDAP in chunks of their own', async () => {
    const bundle = await buildBrowserApp('asymmetric-app.ts')
    const upFront = chunkGroup(
      bundle.metafile,
      bundle.chunks,
      staticClosure(bundle.metafile, bundle.entryOutput),
    )
    const paths = upFront.modules.map((module) => module.path)
    expect(paths.some((path) => path.endsWith('client/src/client.ts'))).toBe(true)
    for (const lazy of [
      'crypto-webcrypto/',
      'packages/udap/',
      'core/src/x509/',
      'core/src/oidc/',
    ]) {
      expect(paths.filter((path) => path.includes(lazy))).toEqual([])
    }
    const entries = Object.values(bundle.metafile.outputs).map((output) => output.entryPoint)
    expect(entries).toContain('packages/crypto-webcrypto/src/signer/import-signer.ts')
    expect(entries).toContain('packages/client/src/udap/udap-protocol.ts')
    expect(upFront.gzipBytes).toBeGreaterThan(0)
    expect(upFront.gzipBytes).toBeLessThan(upFront.minifiedBytes)
  }, 30_000)
})

function group(
  gzipBytes: number,
  modules: readonly string[] = [],
  forbidden: readonly string[] = [],
): ChunkGroup {
  return {
    chunks: [
      {
        name: 'a.js',
        contents: new Uint8Array(0),
        minifiedBytes: gzipBytes * 3,
        gzipBytes,
        brotliBytes: gzipBytes,
      },
    ],
    minifiedBytes: gzipBytes * 3,
    gzipBytes,
    singleFileGzipBytes: gzipBytes,
    brotliBytes: gzipBytes,
    modules: modules.map((path) => ({ path, bytes: 10 })),
    thirdPartyPackages: forbidden,
    forbiddenPackages: forbidden,
  }
}

/** Every app within its issue budget (or limit), except the one given. */
function measurements(app: BrowserAppId, loaded: ChunkGroup): BrowserAppMeasurement[] {
  return browserAppBudgets.map((budget) => {
    const ok = group(budget.issueBudgetBytes ?? budget.limitBytes)
    const chosen = budget.app === app ? loaded : ok
    return {
      id: budget.app,
      description: budget.app,
      loaded: chosen,
      upFront: chosen,
      loadOrder: ['a.js'],
      ran: { functionsRunGzipBytes: 1, blocksRunGzipBytes: 1 },
    }
  })
}

describe('bundleReport verdicts', () => {
  const verdictOf = (list: BrowserAppMeasurement[], id: string) =>
    bundleReport(list).figures.find((figure) => figure.id === id)?.verdict
  const asymmetric = browserAppBudgets.find((budget) => budget.app === 'asymmetric')
  const issueBudget = asymmetric?.issueBudgetBytes ?? 0
  const limit = asymmetric?.limitBytes ?? 0

  it("passes within the issue's budget, misses above it and FAILs above the limit", () => {
    expect(issueBudget).toBeGreaterThan(0)
    expect(limit).toBeGreaterThanOrEqual(issueBudget)
    expect(verdictOf(measurements('asymmetric', group(issueBudget)), 'bundle.asymmetric')).toBe(
      'pass',
    )
    expect(verdictOf(measurements('asymmetric', group(issueBudget + 1)), 'bundle.asymmetric')).toBe(
      'miss',
    )
    expect(verdictOf(measurements('asymmetric', group(limit + 1)), 'bundle.asymmetric')).toBe(
      'FAIL',
    )
  })

  it("judges the public app's bytes up front by issue 12's budget and FAILs above its limit", () => {
    const publicApp = browserAppBudgets.find((budget) => budget.app === 'publicWithoutOpenid')
    const upFrontBudget = publicApp?.upFrontIssueBudgetBytes ?? 0
    const upFrontLimit = publicApp?.upFrontLimitBytes ?? 0
    expect(upFrontBudget).toBe(12_000)
    const upFrontVerdict = (bytes: number) => {
      const list = measurements('publicWithoutOpenid', group(1000)).map((measurement) =>
        measurement.id === 'publicWithoutOpenid'
          ? { ...measurement, upFront: group(bytes) }
          : measurement,
      )
      return verdictOf(list, 'bundle.publicWithoutOpenid.upFront')
    }
    expect(upFrontVerdict(Math.min(upFrontBudget, upFrontLimit))).toBe('pass')
    expect(upFrontVerdict(upFrontLimit + 1)).toBe('FAIL')
  })

  it('FAILs when an app loads pkijs, asn1js, node-forge or UDAP code, and names it', () => {
    const withPkijs = measurements('public', group(1000, [], ['pkijs']))
    expect(verdictOf(withPkijs, 'bundle.forbidden')).toBe('FAIL')
    const withUdap = measurements('asymmetric', group(1000, ['packages/udap/src/discovery.ts']))
    const figure = bundleReport(withUdap).figures.find(
      (candidate) => candidate.id === 'bundle.forbidden',
    )
    expect(figure?.verdict).toBe('FAIL')
    expect(figure?.measured).toContain('asymmetric: packages/udap/src/discovery.ts')
    expect(verdictOf(measurements('public', group(1000)), 'bundle.forbidden')).toBe('pass')
  })

  it('prints the per-source breakdown of every app', () => {
    const report = bundleReport(measurements('public', group(1000, ['packages/core/src/index.ts'])))
    expect(report.details.some((line) => line.endsWith('packages/core/src/index.ts'))).toBe(true)
    expect(report.details.filter((line) => line.includes('chunks in load order'))).toHaveLength(
      browserAppBudgets.length,
    )
  })
})

describe('chunk graph', () => {
  const metafile = {
    inputs: {},
    outputs: {
      'out/entry.js': {
        bytes: 1,
        inputs: {},
        exports: [],
        entryPoint: 'app/entry.ts',
        imports: [
          { path: 'out/shared.js', kind: 'import-statement' },
          { path: 'out/lazy.js', kind: 'dynamic-import' },
        ],
      },
      'out/shared.js': { bytes: 1, inputs: {}, exports: [], imports: [] },
      'out/lazy.js': {
        bytes: 1,
        inputs: {},
        exports: [],
        entryPoint: 'lib/lazy.ts',
        imports: [
          { path: 'out/shared.js', kind: 'import-statement' },
          { path: 'out/lazy-only.js', kind: 'import-statement' },
        ],
      },
      'out/lazy-only.js': { bytes: 1, inputs: {}, exports: [], imports: [] },
    },
  } as unknown as Metafile

  it('follows static imports transitively and never dynamic ones', () => {
    expect([...staticClosure(metafile, 'out/entry.js')].sort()).toEqual([
      'out/entry.js',
      'out/shared.js',
    ])
    expect([...staticClosure(metafile, 'out/lazy.js')].sort()).toEqual([
      'out/lazy-only.js',
      'out/lazy.js',
      'out/shared.js',
    ])
  })
})

describe('packageOfModule', () => {
  it('names the innermost package of a pnpm path, scoped or not, and nothing for workspace sources', () => {
    expect(
      packageOfModule(
        'node_modules/.pnpm/pkijs@4.0.0_asn1js@4.0.0/node_modules/pkijs/build/index.js',
      ),
    ).toBe('pkijs')
    expect(
      packageOfModule('node_modules/.pnpm/@noble+hashes@2.4.0/node_modules/@noble/hashes/sha2.js'),
    ).toBe('@noble/hashes')
    expect(packageOfModule('packages/core/src/index.ts')).toBeUndefined()
    expect(
      packagesOfModules([
        'node_modules/asn1js/build/index.js',
        'node_modules/node-forge/lib/forge.js',
        'node_modules/asn1js/build/other.js',
      ]),
    ).toEqual(['asn1js', 'node-forge'])
  })
})

describe('statistics', () => {
  it('takes nearest-rank percentiles of sorted samples', () => {
    const samples = Array.from({ length: 100 }, (_, index) => index + 1)
    expect(percentile(samples, 0.5)).toBe(50)
    expect(percentile(samples, 0.95)).toBe(95)
    expect(percentile(samples, 0)).toBe(1)
    expect(percentile(samples, 1)).toBe(100)
    expect(() => percentile([], 0.5)).toThrow(RangeError)
  })

  it('summarizes unsorted samples', () => {
    expect(summarize([5, 1, 3])).toEqual({ samples: 3, median: 3, p95: 5, min: 1, max: 5 })
  })
})

describe('compareInterleaved', () => {
  it('alternates operation by operation, flipping the order every pair, and reports median over median', async () => {
    const calls: string[] = []
    const comparison = await compareInterleaved(
      { name: 'baseline', run: () => calls.push('b') },
      { name: 'subject', run: () => calls.push('s') },
      { warmupIterations: 1, samples: 4 },
    )
    // Warm-up b s, then pairs b s, s b, b s, s b.
    expect(calls.join('')).toBe('bs' + 'bssbbssb')
    expect(comparison.baseline.samples).toBe(4)
    expect(comparison.subject.samples).toBe(4)
    expect(comparison.ratio).toBeCloseTo(comparison.subject.median / comparison.baseline.median)
  })
})

describe('verdictForLimit', () => {
  it('passes at the limit, misses above, FAILs above a hard budget', () => {
    expect(verdictForLimit(1.05, 1.05)).toBe('pass')
    expect(verdictForLimit(1.06, 1.05)).toBe('miss')
    expect(verdictForLimit(13, 8, 12)).toBe('FAIL')
  })
})

describe('parseBenchArguments', () => {
  it('defaults to every section with a build, and reads --json, --only and --no-build', () => {
    expect(parseBenchArguments([])).toEqual({
      json: false,
      sections: sectionNames,
      build: true,
      help: false,
    })
    expect(parseBenchArguments(['--', '--json', '--only=token,bundle', '--no-build'])).toEqual({
      json: true,
      sections: ['bundle', 'token'],
      build: false,
      help: false,
    })
  })

  it('refuses unknown flags and sections', () => {
    expect(() => parseBenchArguments(['--fast'])).toThrow(/unknown argument "--fast"/)
    expect(() => parseBenchArguments(['--only=speed'])).toThrow(/unknown section "speed"/)
  })
})

describe('renderTable', () => {
  it('prints one aligned row per figure and the details after the table', () => {
    const table = renderTable([
      {
        id: 'x',
        title: 'Section X',
        figures: [
          {
            id: 'x.a',
            label: 'a figure',
            goal: '≤ 1',
            measured: '0.5',
            verdict: 'pass',
            values: {},
          },
          { id: 'x.b', label: 'b', goal: '—', measured: '2', verdict: 'info', values: {} },
        ],
        details: ['a detail'],
      },
    ])
    expect(table.split('\n')).toEqual([
      'figure   | goal | measured | verdict',
      '---------|------|----------|--------',
      'a figure | ≤ 1  | 0.5      | pass',
      'b        | —    | 2        | info',
      '',
      'Section X:',
      '  a detail',
    ])
  })
})
