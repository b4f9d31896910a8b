/**
 * UDAP discovery through `Client`: signed endpoints win over unsigned ones, validated metadata
 * is cached per community and trust inputs, `?community=` selects the signing certificate,
 * 204 and 404 are discovery failures, and the SMART-only parts of `Client` stay closed.
 */
import {
  CertificateChainError,
  Client,
  ConfigurationError,
  DiscoveryError,
} from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import type { IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { failureOf, syncFailureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRecordingFetch } from './support/recording-fetch.js'
import { countsOf, requestsTo } from './support/sandbox-requests.js'
import {
  b2bContext,
  clientCredentialsRegistration,
  createUdapClient,
  defaultClientUri,
  identityOf,
  type TrustInputs,
  trustInputsOf,
} from './support/udap-test-context.js'

const secondCommunity = 'udap://fhir-auth.sandbox/second'
const unknownCommunity = 'udap://fhir-auth.sandbox/unknown'
const attackerOrigin = 'https://attacker.example.test'

let sandbox: UdapSandbox
let trust: TrustInputs
let certificate: IssuedCertificate

beforeAll(async () => {
  sandbox = await startUdapSandbox({ communities: [secondCommunity] })
  trust = trustInputsOf(sandbox.trust)
  certificate = await sandbox.certificateAuthority.issue({
    commonName: 'Discovery client',
    sanUris: [defaultClientUri],
    keyType: 'p256',
  })
})
afterAll(() => sandbox.close())

describe('signed endpoints', () => {
  it('uses the signed token and registration endpoints when the unsigned ones were tampered with', async () => {
    // A man in the middle rewrites the unsigned endpoints; signed_metadata stays intact.
    const recording = createRecordingFetch(async (url, response) => {
      if (!url.startsWith(sandbox.endpoints.discovery)) return response
      const document = (await response.json()) as Record<string, unknown>
      document.token_endpoint = `${attackerOrigin}/token`
      document.registration_endpoint = `${attackerOrigin}/register`
      return new Response(JSON.stringify(document), {
        status: response.status,
        headers: { 'content-type': 'application/json' },
      })
    })
    const logger = createCapturingLogger()
    const client = createUdapClient(sandbox, identityOf(certificate), {
      fetch: recording.fetch,
      logger,
    })
    const before = countsOf(sandbox)

    const metadata = await client.serverMetadata(trust)
    await client.registerClient(clientCredentialsRegistration, {
      clientUri: defaultClientUri,
      ...trust,
    })
    await client.requestBackendToken({ b2b: b2bContext })

    expect(metadata.raw.token_endpoint).toBe(`${attackerOrigin}/token`)
    expect(metadata.tokenEndpoint).toBe(sandbox.endpoints.token)
    expect(metadata.registrationEndpoint).toBe(sandbox.endpoints.registration)
    expect(recording.exchanges.map((exchange) => exchange.url)).not.toEqual(
      expect.arrayContaining([expect.stringContaining(attackerOrigin)]),
    )
    const after = countsOf(sandbox)
    expect(after.registration - before.registration).toBe(1)
    expect(after.token - before.token).toBe(1)
    const warned = logger.entries
      .filter((entry) => entry.level === 'warn')
      .map((entry) => entry.fields?.field)
    expect(warned).toEqual(expect.arrayContaining(['token_endpoint', 'registration_endpoint']))
  })
})

describe('a baseUrl with a trailing slash (DESIGN §12)', () => {
  it('discovers at the same URL and passes the iss comparison, then registers and gets a token', async () => {
    const client = createUdapClient(
      sandbox,
      identityOf(certificate),
      {},
      {
        baseUrl: `${sandbox.fhirBaseUrl}/`,
      },
    )
    const discoveryPath = new URL(sandbox.endpoints.discovery).pathname
    const discoveries = requestsTo(sandbox, discoveryPath).length
    const metadata = await client.serverMetadata(trust)
    expect(metadata.signedClaims.iss).toBe(sandbox.fhirBaseUrl)
    expect(requestsTo(sandbox, discoveryPath).length).toBe(discoveries + 1)
    await client.registerClient(clientCredentialsRegistration, {
      clientUri: defaultClientUri,
      ...trust,
    })
    const token = await client.requestBackendToken({ b2b: b2bContext, ...trust })
    expect(typeof token.access_token).toBe('string')
  })
})

describe('the discovery cache', () => {
  it('validates once for the same community and trust inputs, concurrent callers included', async () => {
    const client = createUdapClient(sandbox, identityOf(certificate))
    const before = countsOf(sandbox).discovery
    const [first, second] = await Promise.all([
      client.serverMetadata(trust),
      client.serverMetadata(trust),
    ])
    const third = await client.serverMetadata({ ...trust })
    await client.registerClient(clientCredentialsRegistration, {
      clientUri: defaultClientUri,
      ...trust,
    })

    expect(countsOf(sandbox).discovery - before).toBe(1)
    expect(second).toBe(first)
    expect(third).toBe(first)
  })

  it('validates again for a different CRL set, and never serves a cached success to it', async () => {
    const client = createUdapClient(sandbox, identityOf(certificate))
    const before = countsOf(sandbox).discovery
    await client.serverMetadata(trust)

    await client.serverMetadata({
      trustedAnchors: trust.trustedAnchors,
      crls: sandbox.trust.crls.map((crl) => crl.der),
    })
    expect(countsOf(sandbox).discovery - before).toBe(2)

    const stale = trustInputsOf(sandbox.trust, sandbox.trust.crlVariants.stale)
    const error = await failureOf(client.serverMetadata(stale), DiscoveryError)
    expect((error.cause as CertificateChainError).reason).toBe('crl-stale')
    expect(countsOf(sandbox).discovery - before).toBe(3)

    // The success stays cached; the failure does not.
    await client.serverMetadata(trust)
    expect(countsOf(sandbox).discovery - before).toBe(3)
    await failureOf(client.serverMetadata(stale), DiscoveryError)
    expect(countsOf(sandbox).discovery - before).toBe(4)
  })
})

describe('trust communities', () => {
  it('asks for a known community and validates against that community’s anchors', async () => {
    const client = createUdapClient(sandbox, identityOf(certificate))
    const since = sandbox.requests.length
    const metadata = await client.serverMetadata({
      community: secondCommunity,
      ...trustInputsOf(sandbox.communityTrust(secondCommunity)),
    })

    expect(metadata.tokenEndpoint).toBe(sandbox.endpoints.token)
    const [request] = requestsTo(sandbox, '/fhir/.well-known/udap', since)
    expect(request?.query).toEqual({ community: secondCommunity })
  })

  it('refuses a known community’s metadata when given another community’s anchors', async () => {
    const client = createUdapClient(sandbox, identityOf(certificate))
    const error = await failureOf(
      client.serverMetadata({ community: secondCommunity, ...trust }),
      DiscoveryError,
    )
    expect(error.cause).toBeInstanceOf(CertificateChainError)
    expect(error.message).toMatch(/not trusted/)
  })

  it('fails with DiscoveryError status 204 for a community the server does not know', async () => {
    const client = createUdapClient(sandbox, identityOf(certificate))
    const error = await failureOf(
      client.serverMetadata({ community: unknownCommunity, ...trust }),
      DiscoveryError,
    )
    expect(error.status).toBe(204)
    expect(error.endpoint).toBe(sandbox.endpoints.discovery)
    expect(error.message).toContain(unknownCommunity)
  })
})

describe('a server without UDAP', () => {
  it('fails with DiscoveryError status 404 and registers nothing', async () => {
    const baseUrl = `${sandbox.origin}/not-fhir`
    const client = createUdapClient(sandbox, identityOf(certificate), {}, { baseUrl })
    const before = countsOf(sandbox)

    const metadataError = await failureOf(client.serverMetadata(trust), DiscoveryError)
    const registrationError = await failureOf(
      client.registerClient(clientCredentialsRegistration, {
        clientUri: defaultClientUri,
        ...trust,
      }),
      DiscoveryError,
    )

    for (const error of [metadataError, registrationError]) {
      expect(error.status).toBe(404)
      expect(error.endpoint).toBe(`${baseUrl}/.well-known/udap`)
      expect(error.message).toMatch(/does not support UDAP/)
    }
    expect(countsOf(sandbox).registration).toBe(before.registration)
  })
})

describe('a UDAP client: no client type, a flow, nothing before trust', () => {
  it('has clientType null, and refuses every assignment with a ConfigurationError', () => {
    const client = createUdapClient(sandbox, identityOf(certificate))
    expect(client.protocol).toBe('udap')
    expect(client.clientType).toBeNull()
    for (const clientType of [
      'public',
      'confidential_symmetric',
      'confidential_asymmetric',
    ] as const) {
      const error = syncFailureOf(() => {
        client.clientType = clientType
      }, ConfigurationError)
      expect(error.invalidAttribute).toBe('clientType')
      expect(error.message).toMatch(/not applicable for protocol udap/)
      expect(client.clientType).toBeNull()
    }
  })

  it('refuses a client type at construction', () => {
    const error = syncFailureOf(
      () =>
        new Client(
          { baseUrl: sandbox.fhirBaseUrl, allowInsecureLocalhost: true },
          { protocol: 'udap', clientType: 'confidential_asymmetric' },
        ),
      ConfigurationError,
    )
    expect(error.invalidAttribute).toBe('clientType')
  })

  it.each(['b2b', 'b2c', 'tiered_oauth'] as const)('takes the flow %s (DESIGN §10)', (flow) => {
    const client = new Client(
      { baseUrl: sandbox.fhirBaseUrl, allowInsecureLocalhost: true },
      { protocol: 'udap', flow },
    )
    expect(client.flow).toBe(flow)
  })

  it('refuses the authorization-code operations without trusted metadata, and sends nothing', async () => {
    const client = createUdapClient(
      sandbox,
      identityOf(certificate),
      {},
      {
        clientId: 'registered-client',
        redirectUri: 'https://client.example.test/callback',
      },
    )
    const before = countsOf(sandbox)
    const operations: ReadonlyArray<readonly [string, () => Promise<unknown>]> = [
      ['authorizationUrl', () => client.authorizationUrl()],
      [
        'requestAccessToken',
        () => client.requestAccessToken({ code: 'code', codeVerifier: 'v'.repeat(43) }),
      ],
      ['refreshToken', () => client.refreshToken({ refreshToken: 'refresh-token' })],
    ]
    // No trust inputs and nothing validated on this client: the signed endpoints are unknown.
    for (const [name, operation] of operations) {
      const error = await failureOf(operation, ConfigurationError)
      expect(error.invalidAttribute, name).toBe('trustedAnchors')
    }
    expect(countsOf(sandbox)).toEqual(before)
  })
})
