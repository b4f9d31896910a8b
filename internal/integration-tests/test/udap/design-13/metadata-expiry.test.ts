/**
 * UDAP metadata validated earlier is reused without trust inputs only while that validation
 * holds: until its `signed_metadata` `exp`, and no later than the earliest `notAfter` of the
 * chain it was validated with. After that an operation without trust inputs is a
 * `ConfigurationError` on `trustedAnchors` and nothing is sent; a `backendTokens` handle made
 * with trust inputs keeps them and validates again by itself. `signed_metadata` may live up to
 * 366 days. Against the UDAP sandbox on one injected clock shared with the client.
 */
import { ConfigurationError, DiscoveryError } from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { createCertificateAuthority, type IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  callbackFor,
  codeMetadata,
  redirectUri,
  rejectionOf,
} from '../design-10/support/context.js'
import { countsOf } from '../support/sandbox-requests.js'
import {
  clientCredentialsRegistration,
  createUdapClient,
  identityOf,
  type TrustInputs,
  trustInputsOf,
} from '../support/udap-test-context.js'

const clientUri = 'https://client.example.test/design-13-expiry'
const hourMs = 3_600_000
const dayMs = 24 * hourMs
/** The longest lifetime the IG allows: one year, leap day included. */
const longestLifetimeSeconds = 366 * 86_400

/** One clock for the clients and the servers: moving it lets metadata expire without waiting. */
let offsetMs = 0
const now = () => new Date(Date.now() + offsetMs)

let hourly: UdapSandbox
let yearly: UdapSandbox
const certificates = new Map<UdapSandbox, IssuedCertificate>()

beforeAll(async () => {
  const start = Date.now()
  // The client's own chain outlives the server's (365 days), so that what expires first is the
  // server's: the client checks its own chain before anything else.
  const clientRoot = await createCertificateAuthority({
    name: 'design 13 long-lived client root',
    keyType: 'p256',
    notBefore: new Date(start - dayMs),
    notAfter: new Date(start + 3 * 365 * dayMs),
  })
  const clientRootCrl = clientRoot.crl({
    thisUpdate: new Date(start - hourMs),
    nextUpdate: new Date(start + dayMs),
  })
  hourly = await startUdapSandbox({
    now,
    requiredAuthorizationExtensions: [],
    grantTypes: ['client_credentials', 'authorization_code', 'refresh_token'],
  })
  yearly = await startUdapSandbox({
    now,
    requiredAuthorizationExtensions: [],
    signedMetadataLifetimeSeconds: longestLifetimeSeconds,
    clientTrust: { anchors: [clientRoot.certificatePem], crls: [clientRootCrl.crlPem] },
  })
  certificates.set(
    hourly,
    await hourly.certificateAuthority.issue({
      commonName: 'design 13 expiry',
      sanUris: [clientUri],
      keyType: 'p256',
    }),
  )
  certificates.set(
    yearly,
    await clientRoot.issue({
      commonName: 'design 13 expiry',
      sanUris: [clientUri],
      keyType: 'p256',
      notAfter: new Date(start + 2 * 365 * dayMs),
    }),
  )
}, 60_000)
afterAll(async () => {
  await Promise.all([hourly?.close(), yearly?.close()])
})
beforeEach(() => {
  offsetMs = 0
})

/** Trust inputs in fresh arrays the test may change. */
function trustOf(sandbox: UdapSandbox): { trustedAnchors: string[]; crls: string[] } {
  const trust: TrustInputs = trustInputsOf(sandbox.trust)
  return { trustedAnchors: [...trust.trustedAnchors], crls: [...trust.crls] }
}

/** A new client on the shared clock, registered at `sandbox` (this validates its metadata). */
async function registeredClient(sandbox: UdapSandbox) {
  const client = createUdapClient(
    sandbox,
    identityOf(certificates.get(sandbox) as IssuedCertificate),
    { now },
  )
  await client.registerClient(clientCredentialsRegistration, { clientUri, ...trustOf(sandbox) })
  return client
}

async function expectRevalidationRequired(
  sandbox: UdapSandbox,
  operation: Promise<unknown>,
): Promise<void> {
  const before = countsOf(sandbox)
  const error = await rejectionOf(operation)
  expect(error).toBeInstanceOf(ConfigurationError)
  expect(error).toMatchObject({ invalidAttribute: 'trustedAnchors' })
  expect((error as Error).message).toMatch(/must be validated again/)
  // Nothing sent: no token request, and no discovery without trust inputs.
  expect(countsOf(sandbox)).toEqual(before)
}

describe('metadata validated earlier, reused without trust inputs', () => {
  it('is reused until its signed_metadata exp, then refused until validated again', async () => {
    const client = await registeredClient(hourly)
    expect(typeof (await client.requestBackendToken()).access_token).toBe('string')
    offsetMs = hourMs - 60_000
    expect(typeof (await client.requestBackendToken()).access_token).toBe('string')
    offsetMs = hourMs + 1000
    await expectRevalidationRequired(hourly, client.requestBackendToken())
    // Validated again with the trust inputs: reused again without them.
    const discoveries = hourly.requestCounts.discovery
    expect(typeof (await client.requestBackendToken(trustOf(hourly))).access_token).toBe('string')
    expect(hourly.requestCounts.discovery).toBe(discoveries + 1)
    expect(typeof (await client.requestBackendToken()).access_token).toBe('string')
  })

  it('a signed_metadata of 366 days is accepted, and reused no later than its chain expires', async () => {
    const client = await registeredClient(yearly)
    const metadata = await client.serverMetadata(trustOf(yearly))
    const claims = 'signedClaims' in metadata ? metadata.signedClaims : {}
    expect(Number(claims.exp) - Number(claims.iat)).toBe(longestLifetimeSeconds)
    expect(typeof (await client.requestBackendToken()).access_token).toBe('string')
    // The sandbox's certificates live 365 days: past the server certificate's notAfter, before exp.
    const notAfter = 'serverCertificate' in metadata ? metadata.serverCertificate.notAfter : now()
    offsetMs = notAfter.getTime() - Date.now() + hourMs
    expect(now().getTime()).toBeLessThan(Number(claims.exp) * 1000)
    await expectRevalidationRequired(yearly, client.requestBackendToken())
  })
})

describe('the authorization code without trust inputs', () => {
  it('authorizationUrl, the code exchange and refreshToken reuse the metadata until exp, then need the trust inputs', async () => {
    const codeClientUri = 'https://app.example.test/design-13-expiry-code'
    const certificate = await hourly.certificateAuthority.issue({
      commonName: 'design 13 expiry, code flow',
      sanUris: [codeClientUri],
      keyType: 'p256',
    })
    const scopes = ['user/*.rs', 'offline_access']
    const client = createUdapClient(
      hourly,
      identityOf(certificate),
      { now },
      { redirectUri, scopes },
    )
    await client.registerClient(codeMetadata(scopes.join(' ')), {
      clientUri: codeClientUri,
      ...trustOf(hourly),
    })
    const request = await client.authorizationUrl()
    const code = String(new URL(await callbackFor(hourly, request)).searchParams.get('code'))
    const tokens = await client.requestAccessToken({ code, codeVerifier: request.codeVerifier })
    const refreshToken = String(tokens.refresh_token)
    offsetMs = hourMs + 1000
    await expectRevalidationRequired(hourly, client.authorizationUrl())
    await expectRevalidationRequired(hourly, client.refreshToken({ refreshToken }))
    const refreshed = await client.refreshToken({ refreshToken, ...trustOf(hourly) })
    expect(typeof refreshed.access_token).toBe('string')
  })
})

describe('backendTokens handles', () => {
  it('a handle made with trust inputs keeps them and validates again by itself after exp', async () => {
    const client = await registeredClient(hourly)
    const trust = trustOf(hourly)
    const tokens = client.backendTokens(trust)
    const first = await tokens.accessToken()
    // The app reuses its arrays: the handle still has the trust inputs it was made with.
    trust.trustedAnchors.length = 0
    trust.crls.length = 0
    offsetMs = 2 * hourMs
    const discoveries = hourly.requestCounts.discovery
    const second = await tokens.accessToken()
    expect(second).not.toBe(first)
    expect(hourly.requestCounts.discovery).toBe(discoveries + 1)
    expect((await tokens.fetch('Patient/patient-1')).status).toBe(200)
  })

  it('a handle made without trust inputs is refused once the metadata expired', async () => {
    const client = await registeredClient(hourly)
    const tokens = client.backendTokens()
    await tokens.accessToken()
    offsetMs = 2 * hourMs
    await expectRevalidationRequired(hourly, tokens.accessToken())
  })

  it('past the chain notAfter, re-validation itself fails: the handle never uses expired trust', async () => {
    const client = await registeredClient(yearly)
    const tokens = client.backendTokens(trustOf(yearly))
    await tokens.accessToken()
    // Past the server's certificates (365 days), before the signed_metadata exp (366 days).
    offsetMs = 365 * dayMs + hourMs
    const error = await rejectionOf(tokens.accessToken())
    expect(error).toBeInstanceOf(DiscoveryError)
    expect((error as Error).message).toMatch(/certificate chain is not trusted \(expired\)/)
  })
})
