/**
 * Measures the SMART sandbox on loopback: start-up time (first start in a process, which pays
 * for importing oidc-provider and generating the RSA signing key, and a second start) and the
 * latency of each flow as a plain fetch client sees it. It guards nothing; it produces the
 * figures quoted in the README so later changes can be compared.
 *
 * Run: `npx tsx scripts/measure-smart-latency.ts [iterations]` in internal/sandbox.
 */
import { generateClientKeys, startSmartSandbox } from '../src/index.js'
import { authorizationUrl, prepareAuthorization } from '../test/smart/support/authorization.js'
import { clientAssertionType, signClientAssertion } from '../test/smart/support/client-assertion.js'
import { postForm, postJson } from '../test/smart/support/http.js'

const iterations = Number(process.argv[2] ?? 50)

const firstStart = performance.now()
const warmup = await startSmartSandbox()
const firstStartMs = performance.now() - firstStart
await warmup.close()

const keys = await generateClientKeys('ES384')
const secondStart = performance.now()
const sandbox = await startSmartSandbox({
  clients: [
    { client_id: 'app', token_endpoint_auth_method: 'none' },
    {
      client_id: 'backend',
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [keys.publicJwk] },
    },
  ],
  requestLogLimit: 0,
})
const secondStartMs = performance.now() - secondStart

const samples: Record<string, number[]> = {
  discovery: [],
  'authorize (GET, 5 hops)': [],
  'token (code exchange)': [],
  refresh: [],
  'client_credentials (ES384 assertion)': [],
  'Patient read': [],
  'registration (RFC 7591)': [],
}

async function timed<T>(name: string, action: () => Promise<T>): Promise<T> {
  const started = performance.now()
  const result = await action()
  samples[name]?.push(performance.now() - started)
  return result
}

for (let index = 0; index < iterations; index += 1) {
  await timed('discovery', () =>
    fetch(sandbox.endpoints.discovery).then((response) => response.json()),
  )
  const prepared = prepareAuthorization(sandbox, {
    clientId: 'app',
    scope: 'openid fhirUser launch/patient patient/*.rs offline_access',
  })
  const { code } = await timed('authorize (GET, 5 hops)', () =>
    sandbox.authorize({ url: authorizationUrl(sandbox, prepared) }),
  )
  const token = await timed('token (code exchange)', () =>
    postForm(sandbox.endpoints.token, {
      grant_type: 'authorization_code',
      code: code ?? '',
      redirect_uri: prepared.redirectUri,
      code_verifier: prepared.pkce.verifier,
      client_id: 'app',
    }),
  )
  await timed('refresh', () =>
    postForm(sandbox.endpoints.token, {
      grant_type: 'refresh_token',
      refresh_token: String(token.body.refresh_token),
      client_id: 'app',
    }),
  )
  const assertion = await signClientAssertion(keys, 'backend', sandbox.endpoints.token)
  await timed('client_credentials (ES384 assertion)', () =>
    postForm(sandbox.endpoints.token, {
      grant_type: 'client_credentials',
      scope: 'system/Patient.rs',
      client_assertion_type: clientAssertionType,
      client_assertion: assertion,
    }),
  )
  await timed('Patient read', () =>
    fetch(`${sandbox.fhirBaseUrl}/Patient/patient-1`, {
      headers: { authorization: `Bearer ${String(token.body.access_token)}` },
    }).then((response) => response.text()),
  )
  await timed('registration (RFC 7591)', () =>
    postJson(
      sandbox.endpoints.registration,
      {
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [keys.publicJwk] },
      },
      { authorization: `Bearer ${sandbox.initialAccessToken}` },
    ),
  )
}

const closeStarted = performance.now()
await sandbox.close()
const closeMs = performance.now() - closeStarted

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right)
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN
}

console.log(`node ${process.version}, ${iterations} iterations, sequential, one client`)
console.log(
  `start-up: first ${firstStartMs.toFixed(0)} ms, second ${secondStartMs.toFixed(0)} ms; close ${closeMs.toFixed(1)} ms`,
)
for (const [name, values] of Object.entries(samples)) {
  console.log(
    `${name.padEnd(38)} p50 ${percentile(values, 0.5).toFixed(2)} ms  p95 ${percentile(values, 0.95).toFixed(2)} ms`,
  )
}
