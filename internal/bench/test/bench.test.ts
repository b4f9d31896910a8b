/**
 * Smoke test of the benchmark machinery (not of the figures: budgets are the bench's job, and
 * a test must not fail because the library grew). Runs the real bundle measurement (~1 s) and
 * checks the pure helpers the verdicts rest on.
 */
import type { Metafile } from 'esbuild'
import { describe, expect, it } from 'vitest'
import {
  bundleReport,
  upFrontGoalBytes,
  upFrontHardBudgetBytes,
} from '../src/bundle/bundle-section.js'
import { outputForEntryPoint, staticClosure } from '../src/bundle/chunk-graph.js'
import {
  type ChunkGroup,
  measureSmartBundle,
  type SmartBundleMeasurement,
} from '../src/bundle/measure-smart-bundle.js'
import { packageOfModule, packagesOfModules } from '../src/bundle/third-party-modules.js'
import { parseBenchArguments, sectionNames } from '../src/cli-arguments.js'
import { compareInterleaved } from '../src/measurement/interleaved-comparison.js'
import { percentile, summarize } from '../src/measurement/statistics.js'
import { verdictForLimit } from '../src/report/figure.js'
import { renderTable } from '../src/report/render-table.js'

describe('measureSmartBundle', () => {
  it('splits the SMART app into up-front, asymmetric-client and UDAP chunks without pkijs, asn1js or node-forge', async () => {
    const measurement = await measureSmartBundle()
    const { upFront, asymmetricClient, udapClient } = measurement

    expect(upFront.chunks.map((chunk) => chunk.name)).toContain('smart-app.js')
    expect(upFront.modules.some((module) => module.path.endsWith('client/src/client.ts'))).toBe(
      true,
    )
    // The crypto backend and UDAP load lazily: none of their modules may be up front.
    expect(upFront.modules.some((module) => module.path.includes('crypto-webcrypto/'))).toBe(false)
    expect(upFront.modules.some((module) => module.path.includes('packages/udap/'))).toBe(false)
    expect(
      asymmetricClient.modules.some((module) =>
        module.path.endsWith('crypto-webcrypto/src/backend.ts'),
      ),
    ).toBe(true)
    expect(udapClient.modules.some((module) => module.path.includes('packages/udap/src/'))).toBe(
      true,
    )
    for (const group of [upFront, asymmetricClient]) {
      expect(group.forbiddenPackages).toEqual([])
      expect(group.gzipBytes).toBeGreaterThan(0)
      expect(group.gzipBytes).toBeLessThan(group.minifiedBytes)
    }
    // Groups are disjoint: what loads up front is not counted again for the asymmetric client.
    const upFrontNames = new Set(upFront.chunks.map((chunk) => chunk.name))
    expect(asymmetricClient.chunks.filter((chunk) => upFrontNames.has(chunk.name))).toEqual([])
    // The PKCS#12 chunk (pkijs) exists but is in no measured group.
    expect(measurement.allChunks.length).toBeGreaterThan(
      upFront.chunks.length + asymmetricClient.chunks.length,
    )

    const report = bundleReport(measurement)
    expect(report.figures.map((figure) => figure.id)).toEqual([
      'bundle.upFront',
      'bundle.asymmetricClient',
      'bundle.forbiddenPackages',
      'bundle.udapClient',
    ])
    expect(report.details.some((line) => line.includes('top 15 modules up front'))).toBe(true)
  }, 20_000)
})

function group(gzipBytes: number, forbiddenPackages: readonly string[] = []): ChunkGroup {
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
    modules: [],
    thirdPartyPackages: forbiddenPackages,
    forbiddenPackages,
  }
}

function measurementWith(
  upFront: ChunkGroup,
  asymmetricClient = group(1000),
): SmartBundleMeasurement {
  return { upFront, asymmetricClient, udapClient: group(1000), allChunks: [] }
}

describe('bundleReport verdicts', () => {
  const verdictOf = (measurement: SmartBundleMeasurement, id: string) =>
    bundleReport(measurement).figures.find((figure) => figure.id === id)?.verdict

  it('passes at the goal, misses above it and FAILs above the hard budget', () => {
    expect(verdictOf(measurementWith(group(upFrontGoalBytes)), 'bundle.upFront')).toBe('pass')
    expect(verdictOf(measurementWith(group(upFrontGoalBytes + 1)), 'bundle.upFront')).toBe('miss')
    expect(verdictOf(measurementWith(group(upFrontHardBudgetBytes)), 'bundle.upFront')).toBe('miss')
    expect(verdictOf(measurementWith(group(upFrontHardBudgetBytes + 1)), 'bundle.upFront')).toBe(
      'FAIL',
    )
  })

  it('misses when pkijs, asn1js or node-forge is in the up-front or asymmetric chunks', () => {
    const withPkijs = measurementWith(group(5000), group(1000, ['pkijs']))
    expect(verdictOf(withPkijs, 'bundle.asymmetricClient')).toBe('miss')
    expect(verdictOf(withPkijs, 'bundle.forbiddenPackages')).toBe('miss')
    const withForge = measurementWith(group(5000, ['node-forge']))
    expect(verdictOf(withForge, 'bundle.forbiddenPackages')).toBe('miss')
    expect(verdictOf(measurementWith(group(5000)), 'bundle.forbiddenPackages')).toBe('pass')
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

  it('finds a chunk by the end of its entry point and refuses a missing one', () => {
    expect(outputForEntryPoint(metafile, 'lib/lazy.ts')).toBe('out/lazy.js')
    expect(() => outputForEntryPoint(metafile, 'lib/gone.ts')).toThrow(/no bundle chunk/)
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
