/**
 * Real EHRs' documented deviations, tolerated: against each vendor mode of the SMART sandbox,
 * through `Client`, an EHR-style launch with `openid` (issuer binding, ID token), a refresh and a
 * backend token all succeed, and each deviation the mode shows is named by one warning. Nothing
 * that touches security is tolerated (see issuer-binding.test.ts and failures.test.ts).
 */
import { AuthorizationError, type Client, memoryStore, TokenError } from '@fhir-auth/client'
import { type SandboxVendor, sandboxVendors } from '@fhir-auth/sandbox'
import { type CapturingLogger, createCapturingLogger } from '@fhir-auth/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readPatientStatus } from './support/flows.js'
import {
  appClient,
  backendClient,
  clientIds,
  type SmartFixture,
  startSmartFixture,
} from './support/smart-fixture.js'

/**
 * The warnings each mode causes: once per discovered document (`discovery`), once per token
 * response that shows the deviation (`tokens`).
 */
const expectedWarnings: Readonly<
  Record<
    SandboxVendor,
    { discovery: readonly RegExp[]; tokens: readonly RegExp[]; backendTokens: readonly RegExp[] }
  >
> = {
  epic: {
    discovery: [],
    tokens: [/need_patient_banner is the string "true", not a boolean; read as true/],
    backendTokens: [],
  },
  'oracle-health': { discovery: [], tokens: [], backendTokens: [] },
  athenahealth: {
    discovery: [/no code_challenge_methods_supported .*sending PKCE S256 anyway/],
    tokens: [],
    backendTokens: [],
  },
  generic: {
    discovery: [/SMART discovery: \S+ served as text\/plain, not application\/json; read as JSON/],
    tokens: [/token_type "bearer" is not written "Bearer"; read as Bearer/],
    backendTokens: [/token_type "bearer" is not written "Bearer"; read as Bearer/],
  },
}

/** Each pattern matches exactly one warning, and there is no other warning. */
function expectWarnings(logger: CapturingLogger, patterns: readonly RegExp[]) {
  const warnings = logger.messages('warn')
  for (const pattern of patterns) {
    expect(
      warnings.filter((message) => pattern.test(message)),
      `${pattern}`,
    ).toHaveLength(1)
  }
  expect(warnings).toHaveLength(patterns.length)
  expect(logger.messages('error')).toEqual([])
}

describe.each(sandboxVendors)('the %s vendor mode', (vendor) => {
  let fixture: SmartFixture
  let logger: CapturingLogger

  beforeAll(async () => {
    fixture = await startSmartFixture({ vendor })
  })
  afterAll(() => fixture?.sandbox.close())

  function client(kind: 'ES384' = 'ES384'): Client {
    logger = createCapturingLogger()
    return appClient(fixture, kind, {}, { logger })
  }

  async function launch(app: Client) {
    const store = memoryStore()
    const begun = await app.beginAuthorization({ store })
    const result = await fixture.sandbox.authorize({ url: begun.authUrl })
    if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
    return app.completeAuthorization(result.redirectUrl.href, { store })
  }

  it('completes a launch with openid and refreshes it, one warning per deviation', async () => {
    const app = client()
    const session = await launch(app)
    expect(session.tokens.patient).toBe('patient-1')
    expect(session.tokens.idTokenClaims?.sub).toBe('practitioner-1')
    expect(session.tokens.needPatientBanner).toBe(true)
    const { discovery, tokens } = expectedWarnings[vendor]
    expectWarnings(logger, [...discovery, ...tokens])
    logger.clear()
    const refreshed = await session.refresh()
    expect(refreshed.refreshToken === undefined).toBe(false)
    expect(refreshed.needPatientBanner).toBe(true)
    expect(await readPatientStatus(fixture.sandbox, 'patient-1', refreshed.accessToken)).toBe(200)
    expectWarnings(logger, tokens)
  })

  it('gets a backend token', async () => {
    logger = createCapturingLogger()
    const backend = backendClient(fixture, 'ES384', { scopes: ['system/Patient.rs'] }, { logger })
    const token = await backend.requestBackendToken()
    expect(token.scope).toBe('system/Patient.rs')
    expect(await readPatientStatus(fixture.sandbox, 'patient-1', token.access_token)).toBe(200)
    const { discovery, backendTokens } = expectedWarnings[vendor]
    // The backend client never authorizes, so the PKCE warning is not its concern.
    const read = discovery.filter((pattern) => !pattern.source.includes('PKCE'))
    expectWarnings(logger, [...read, ...backendTokens])
  })

  it('keeps the vendor members of a token response in raw', async () => {
    const session = await launch(client())
    if (vendor === 'epic') {
      expect(session.tokens.raw['__epic.dstu2.patient']).toBe('Tpatient-1')
      expect(session.tokens.raw.loginDepartment).toBe('1700801')
    }
    expect(session.tokens.raw.access_token).toBe(session.tokens.accessToken)
  })

  it('reports an invalid_client as a TokenError, warning about a null error_description', async () => {
    logger = createCapturingLogger()
    const backend = backendClient(fixture, 'ES384', { clientId: clientIds.public }, { logger })
    const failure = await backend.requestBackendToken().catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(TokenError)
    expect((failure as TokenError).error).toBe('invalid_client')
    if (vendor === 'epic') expect((failure as TokenError).errorDescription).toBeUndefined()
    const nullDescription = logger
      .messages('warn')
      .filter((message) => message.includes('error_description is null'))
    expect(nullDescription).toHaveLength(vendor === 'epic' ? 1 : 0)
    if (vendor === 'oracle-health') {
      expect((failure as TokenError).errorUri).toBe(
        'urn:cerner:error:authorization-server:oauth2:token:invalid_client',
      )
    }
  })

  it('still refuses a callback from an issuer that is not bound to the server', async () => {
    const { sandbox } = fixture
    // Epic's own shape, an issuer apart from the FHIR base, but without an openid-configuration
    // that vouches for it (oidc-provider has none under this path).
    sandbox.setDiscoveryOverride({
      ...(vendor === 'generic' ? { response: { contentType: 'text/plain' } } : {}),
      document: (document) => {
        document.issuer = `${sandbox.origin}/oauth2`
        if (vendor === 'athenahealth') {
          delete (document as Record<string, unknown>).code_challenge_methods_supported
        }
        return undefined
      },
    })
    try {
      const failure = await launch(client()).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(AuthorizationError)
      expect((failure as AuthorizationError).error).toBe('iss_mismatch')
    } finally {
      sandbox.setDiscoveryOverride(undefined)
    }
  })
})
