/**
 * Measures the UDAP sandbox's authorization-code and Tiered OAuth flows on loopback, as a plain
 * fetch client sees them: start-up of a data holder + IdP pair, a local authorization, the code
 * exchange and a refresh with an ES256 authentication token, and a whole Tiered OAuth login
 * (data holder → IdP → data holder, with the IdP's metadata check, code exchange and ID token
 * validation). It guards nothing; it produces the figures quoted in the README.
 *
 * Run: `npx tsx --conditions=@fhir-auth/source scripts/measure-udap-code-latency.ts [iterations]`
 * in internal/sandbox.
 */
import { startTieredOAuthSandboxes } from '../src/index.js'
import {
  authorizationParameters,
  authorizationUrl,
  exchangeCode,
  pkcePair,
  refresh,
  registerCodeClient,
} from '../test/udap-code-flow-client.js'

const iterations = Number(process.argv[2] ?? 50)

const started = performance.now()
const { dataHolder, identityProvider, close } = await startTieredOAuthSandboxes({
  dataHolder: { requestLogLimit: 0 },
  identityProvider: { requestLogLimit: 0 },
})
const startMs = performance.now() - started
const app = await registerCodeClient(dataHolder, { scope: 'openid udap user/*.rs' })

const samples: Record<string, number[]> = {
  'authorize (local user, 1 hop)': [],
  'token (code exchange, ES256 AnT)': [],
  'refresh (ES256 AnT)': [],
  'Tiered OAuth login (4 hops)': [],
}

async function timed<T>(name: string, action: () => Promise<T>): Promise<T> {
  const begin = performance.now()
  const result = await action()
  samples[name]?.push(performance.now() - begin)
  return result
}

for (let index = 0; index < iterations; index += 1) {
  const local = pkcePair()
  const localRequest = authorizationParameters(app, local.challenge)
  const { code } = await timed('authorize (local user, 1 hop)', () =>
    dataHolder.authorize({ url: authorizationUrl(dataHolder, localRequest) }),
  )
  const tokens = await timed('token (code exchange, ES256 AnT)', () =>
    exchangeCode(dataHolder, app, { code: code ?? '', verifier: local.verifier }),
  )
  await timed('refresh (ES256 AnT)', () =>
    refresh(dataHolder, app, String(tokens.json.refresh_token)),
  )
  const tiered = pkcePair()
  const tieredRequest = authorizationParameters(app, tiered.challenge, {
    scope: 'udap openid user/Patient.rs',
    idp: identityProvider.issuer,
  })
  const result = await timed('Tiered OAuth login (4 hops)', () =>
    dataHolder.authorize({ url: authorizationUrl(dataHolder, tieredRequest) }),
  )
  if (result.code === undefined) throw new Error(`tiered login failed: ${result.error}`)
}
await close()

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right)
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN
}

console.log(`node ${process.version}, ${iterations} iterations, sequential, one client`)
console.log(`start-up of data holder + IdP (one RSA key): ${startMs.toFixed(0)} ms`)
for (const [name, values] of Object.entries(samples)) {
  console.log(
    `${name.padEnd(36)} p50 ${percentile(values, 0.5).toFixed(2)} ms  p95 ${percentile(values, 0.95).toFixed(2)} ms`,
  )
}
