import type { Figure, SectionReport, Verdict } from '../report/figure.js'
import { verdictForLimit } from '../report/figure.js'
import { formatKilobytes } from '../report/format.js'
import { breakdownLines, describeGroup, modulesUnder } from './breakdown.js'
import {
  type BrowserAppBudget,
  browserAppBudgets,
  forbiddenPackages,
  forbiddenSources,
} from './budgets.js'
import { type BrowserAppMeasurement, measureBrowserApps } from './measure-browser-apps.js'

/** fhirclient 2.6.3's browser entry, esbuild-bundled with the same flags (smart-anchors.md §C.1). */
const fhirclientGzipBytes = 26_787
/** Sources listed per app in the details; the rest are summed in one line. */
const breakdownSize = 25

/**
 * Figure 1: what SMART browser apps download. Each app is bundled with esbuild (browser, ESM,
 * minified, split per dynamic import), run in headless Chromium against a fake EHR, and the
 * chunks the browser fetched are gzipped one by one and summed.
 */
export async function runBundleSection(): Promise<SectionReport> {
  return bundleReport(await measureBrowserApps())
}

/** Turns the measurements into the report's figures and the per-source breakdowns. */
export function bundleReport(measurements: readonly BrowserAppMeasurement[]): SectionReport {
  const figures: Figure[] = browserAppBudgets.flatMap((budget) => {
    const measurement = measurementOf(measurements, budget.app)
    return [appFigure(budget, measurement), upFrontFigure(budget, measurement)]
  })
  const forbidden = measurements.flatMap((measurement) => [
    ...measurement.loaded.forbiddenPackages.map((name) => `${measurement.id}: ${name}`),
    ...modulesUnder(measurement.loaded, forbiddenSources).map(
      (path) => `${measurement.id}: ${path}`,
    ),
  ])
  figures.push(codeRunFigure(measurementOf(measurements, 'publicWithoutOpenid')))
  figures.push({
    id: 'bundle.forbidden',
    label: `${forbiddenPackages.join(' / ')} or UDAP code loaded by any of them`,
    goal: 'none (metafile inputs of the loaded chunks)',
    measured: forbidden.length === 0 ? 'none' : forbidden.join(', '),
    verdict: forbidden.length === 0 ? 'pass' : 'FAIL',
    values: { found: forbidden },
  })
  const details = [
    ...browserAppBudgets.map((budget) => `${budget.app}: ${budget.note}`),
    ...measurements.map(
      ({ id, ran, loaded }) =>
        `${id}: only the code its run executed (V8 coverage, each chunk cut and gzipped): whole functions ${formatKilobytes(ran.functionsRunGzipBytes)}, blocks ${formatKilobytes(ran.blocksRunGzipBytes)}, of ${formatKilobytes(loaded.gzipBytes)} loaded`,
    ),
    `fhirclient 2.6.3 browser entry, same flags: 79.4 KB min / ${formatKilobytes(fhirclientGzipBytes)} gz (quoted from research/smart-anchors.md §C.1, not re-measured)`,
    ...measurements.flatMap((measurement) => ['', ...breakdownLines(measurement, breakdownSize)]),
  ]
  return {
    id: 'bundle',
    title: 'Bundle (esbuild, browser, es2022, splitting; chunks loaded in Chromium)',
    figures,
    details,
  }
}

function measurementOf(
  measurements: readonly BrowserAppMeasurement[],
  app: BrowserAppMeasurement['id'],
): BrowserAppMeasurement {
  const found = measurements.find((measurement) => measurement.id === app)
  if (found === undefined) throw new Error(`no measurement of the ${app} app`)
  return found
}

function appFigure(budget: BrowserAppBudget, measurement: BrowserAppMeasurement): Figure {
  const { loaded } = measurement
  const { goal, verdict } = judged(loaded.gzipBytes, budget.limitBytes, 'issue 16', {
    budgetBytes: budget.issueBudgetBytes,
    goalBytes: budget.issueGoalBytes,
  })
  return {
    id: `bundle.${budget.app}`,
    label: `${labels[budget.app]}, chunks loaded, gzip each`,
    goal,
    measured: `${describeGroup(loaded)}; up front ${formatKilobytes(measurement.upFront.gzipBytes)}`,
    verdict,
    values: {
      gzipBytes: loaded.gzipBytes,
      minifiedBytes: loaded.minifiedBytes,
      singleFileGzipBytes: loaded.singleFileGzipBytes,
      brotliBytes: loaded.brotliBytes,
      upFrontGzipBytes: measurement.upFront.gzipBytes,
      limitBytes: budget.limitBytes,
      issueBudgetBytes: budget.issueBudgetBytes ?? null,
      chunks: [...measurement.loadOrder],
      thirdPartyPackages: [...loaded.thirdPartyPackages],
      topSources: loaded.modules
        .slice(0, breakdownSize)
        .map((module) => ({ path: module.path, bytes: module.bytes })),
    },
  }
}

/**
 * Issue 16's public app against the floors of its own run: what no arrangement of chunks can go
 * below (every function the flow ran, whole), and what is left without the branches that never ran.
 */
function codeRunFigure(measurement: BrowserAppMeasurement): Figure {
  const { functionsRunGzipBytes, blocksRunGzipBytes } = measurement.ran
  return {
    id: 'bundle.publicWithoutOpenid.ran',
    label: `${labels.publicWithoutOpenid}, only the code its run executed (V8 coverage), gzip each`,
    goal: '— (info: the floor for issue 16)',
    measured: `whole functions run ${formatKilobytes(functionsRunGzipBytes)}, blocks run ${formatKilobytes(blocksRunGzipBytes)}, of ${formatKilobytes(measurement.loaded.gzipBytes)} loaded`,
    verdict: 'info',
    values: {
      functionsRunGzipBytes,
      blocksRunGzipBytes,
      loadedGzipBytes: measurement.loaded.gzipBytes,
    },
  }
}

/** What loads before the app does anything: judged by issue 12's budget where it set one. */
function upFrontFigure(budget: BrowserAppBudget, measurement: BrowserAppMeasurement): Figure {
  const { upFront } = measurement
  const issueBudget = budget.upFrontIssueBudgetBytes
  const { goal, verdict } = judged(upFront.gzipBytes, budget.upFrontLimitBytes, 'issue 12', {
    budgetBytes: issueBudget,
    goalBytes: budget.upFrontIssueGoalBytes,
  })
  return {
    id: `bundle.${budget.app}.upFront`,
    label: `${labels[budget.app]}, up front (entry chunk and its static imports), gzip each`,
    goal,
    measured: describeGroup(upFront),
    verdict,
    values: {
      gzipBytes: upFront.gzipBytes,
      minifiedBytes: upFront.minifiedBytes,
      limitBytes: budget.upFrontLimitBytes,
      issueBudgetBytes: issueBudget ?? null,
    },
  }
}

/**
 * A figure's goal text and verdict: `FAIL` above the hard limit; where the issue set a budget,
 * `pass` within it and `miss` above it; without one, `pass` within the limit.
 */
function judged(
  measuredBytes: number,
  limitBytes: number,
  issue: string,
  issueBytes: {
    readonly budgetBytes?: number | undefined
    readonly goalBytes?: number | undefined
  },
): { goal: string; verdict: Verdict } {
  const limit = `hard ≤ ${formatKilobytes(limitBytes)}`
  const { budgetBytes, goalBytes } = issueBytes
  if (budgetBytes === undefined) {
    return { goal: limit, verdict: verdictForLimit(measuredBytes, limitBytes, limitBytes) }
  }
  return {
    goal: `${issue}: ≤ ${formatKilobytes(budgetBytes)} (goal ≤ ${formatKilobytes(goalBytes ?? budgetBytes)}); ${limit}`,
    verdict: verdictForLimit(measuredBytes, budgetBytes, limitBytes),
  }
}

const labels: Readonly<Record<BrowserAppMeasurement['id'], string>> = {
  asymmetric: 'asymmetric SMART app (ES384 JWK, 4 flows)',
  publicWithoutOpenid: 'public SMART app, launch → session.fetch, no openid',
  public: 'public SMART app, launch with openid fhirUser (ID token validated)',
  clientImport: 'import { Client } alone',
}
