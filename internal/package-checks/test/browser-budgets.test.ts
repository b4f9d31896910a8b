/**
 * The byte budgets of SMART browser apps (issue 16), measured as `pnpm bench` measures them:
 * each app bundled with esbuild (browser, ESM, minified, split per dynamic import), run in
 * headless Chromium against a fake EHR through the `fetch` option, and the chunks the browser
 * fetched gzipped one by one and summed. Deterministic: a budget exceeded fails here, with the
 * per-source breakdown in the message. The budgets and why they are what they are:
 * internal/bench/src/bundle/budgets.ts and internal/bench/README.md.
 */
import {
  type BrowserAppMeasurement,
  breakdownLines,
  browserAppBudgets,
  forbiddenPackages,
  forbiddenSources,
  measureBrowserApps,
  modulesUnder,
} from '@fhir-auth/bench/browser-apps'
import { beforeAll, describe, expect, it } from 'vitest'

let measurements: readonly BrowserAppMeasurement[] = []

beforeAll(async () => {
  measurements = await measureBrowserApps()
}, 240_000)

function measurementOf(app: string): BrowserAppMeasurement {
  const found = measurements.find((measurement) => measurement.id === app)
  if (found === undefined) throw new Error(`the ${app} app was not measured`)
  return found
}

describe('SMART browser apps, chunks loaded in Chromium', () => {
  it.each(browserAppBudgets.map((budget) => [budget.app, budget] as const))(
    '%s stays within its byte budget',
    (app, budget) => {
      const measurement = measurementOf(app)
      const breakdown = breakdownLines(measurement).join('\n')
      console.info(
        `${app}: ${measurement.loaded.gzipBytes} B gzip in ${measurement.loaded.chunks.length} chunks (limit ${budget.limitBytes} B)`,
      )
      expect(measurement.loaded.gzipBytes, `over its budget:\n${breakdown}`).toBeLessThanOrEqual(
        budget.limitBytes,
      )
    },
  )

  it.each(browserAppBudgets.map((budget) => [budget.app, budget] as const))(
    '%s stays within its byte budget up front (entry chunk and its static imports)',
    (app, budget) => {
      const { upFront } = measurementOf(app)
      const chunks = upFront.chunks.map((chunk) => `${chunk.name} ${chunk.gzipBytes} B`).join(', ')
      expect(upFront.gzipBytes, `up front: ${chunks}`).toBeLessThanOrEqual(budget.upFrontLimitBytes)
      // Issue 12's 12 KB up front is reported by `pnpm bench` (pass or miss), as issue 16's
      // budgets are: the hard check is the limit above (budgets.ts says why it moved).
    },
  )

  it.each(browserAppBudgets.map((budget) => budget.app))(
    '%s loads no pkijs, asn1js, node-forge or UDAP code',
    (app) => {
      const { loaded } = measurementOf(app)
      expect(loaded.thirdPartyPackages.filter((name) => forbiddenPackages.includes(name))).toEqual(
        [],
      )
      expect(modulesUnder(loaded, forbiddenSources)).toEqual([])
    },
  )

  it('an asymmetric app signing with a JWK loads no certificate, CRL, chain or PEM code', () => {
    const sources = measurementOf('asymmetric').loaded.modules.map((module) => module.path)
    expect(
      sources.some((path) => path.endsWith('crypto-webcrypto/src/signer/import-signer.ts')),
    ).toBe(true)
    expect(sources.filter((path) => path.includes('core/src/x509/'))).toEqual([])
    expect(
      sources.filter((path) =>
        /crypto-webcrypto\/src\/(certificates|keys|pkcs12|verify)\/|signer\/pem-key/.test(path),
      ),
    ).toEqual([])
    expect(sources.filter((path) => path.includes('smart/src/registration'))).toEqual([])
  })

  it('validating an ID token loads verification code only: no signing, certificate or chain code', () => {
    const sources = measurementOf('public').loaded.modules.map((module) => module.path)
    expect(sources.some((path) => path.endsWith('core/src/oidc/verify-id-token.ts'))).toBe(true)
    expect(
      sources.some((path) => path.endsWith('crypto-webcrypto/src/verify/verify-signature.ts')),
    ).toBe(true)
    const certificateOrSigning =
      /core\/src\/x509\/(chain|certificate|crl|path-rules|name-|private-key|pem)|core\/src\/crypto\/(algorithms|fixed-algorithm|import-signer-options|jws\.ts)|crypto-webcrypto\/src\/(signer|certificates|keys|pkcs12)\//
    expect(sources.filter((path) => certificateOrSigning.test(path))).toEqual([])
  })

  it('without openid, no ID token code and no crypto backend loads', () => {
    const sources = measurementOf('publicWithoutOpenid').loaded.modules.map((module) => module.path)
    expect(sources.some((path) => path.endsWith('client/src/launch/authorization-flow.ts'))).toBe(
      true,
    )
    expect(
      sources.filter((path) => /core\/src\/oidc\/|crypto-webcrypto\/|identity\//.test(path)),
    ).toEqual([])
    // The session's refresh loads with its first refresh; this run has none.
    expect(
      sources.filter((path) => path.endsWith('client/src/session/session-refresh.ts')),
    ).toEqual([])
  })
})
