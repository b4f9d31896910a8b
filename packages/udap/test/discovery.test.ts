import {
  CertificateChainError,
  ConfigurationError,
  DiscoveryError,
  HttpError,
} from '@fhir-auth/core'
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { type ExpectedRequest, fakeFetch, jsonResponse } from '@fhir-auth/test-utils/fake-fetch'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type DiscoverUdapOptions,
  discoverUdapMetadata,
  UdapMetadata,
  udapDiscoveryUrl,
} from '../src/index.js'
import { captureLogger } from './support/logger.js'
import {
  authorizationEndpoint,
  baseUrl,
  clientUri,
  createTestPki,
  registrationEndpoint,
  type TestPki,
  tokenEndpoint,
} from './support/pki.js'
import { metadataDocument, signedClaims, signedMetadata } from './support/udap-server.js'

const crypto = webCryptoBackend
const discoveryUrl = `${baseUrl}/.well-known/udap`
let pki: TestPki

beforeAll(async () => {
  pki = await createTestPki()
})

function discover(overrides: Partial<DiscoverUdapOptions> & Pick<DiscoverUdapOptions, 'fetch'>) {
  return discoverUdapMetadata({
    baseUrl,
    crypto,
    trustedAnchors: pki.anchors,
    crls: pki.crls,
    now: () => pki.now,
    logger: captureLogger(),
    ...overrides,
  })
}

/** A server answering the one discovery GET (at `url`) with `respond`. */
function discoveryServer(respond: ExpectedRequest['respond'], url = discoveryUrl) {
  return fakeFetch({ method: 'GET', url, respond })
}

async function discoveryFailure(promise: Promise<unknown>): Promise<DiscoveryError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(DiscoveryError)
  return error as DiscoveryError
}

describe('udapDiscoveryUrl', () => {
  it('appends /.well-known/udap to the base URL without trailing slashes', () => {
    const expected = 'https://fhir.example.test/r4/.well-known/udap'
    expect(udapDiscoveryUrl('https://fhir.example.test/r4')).toBe(expected)
    expect(udapDiscoveryUrl('https://fhir.example.test/r4//')).toBe(expected)
    expect(udapDiscoveryUrl(`${baseUrl}/`)).toBe(discoveryUrl)
  })

  it('adds the percent-encoded community', () => {
    expect(udapDiscoveryUrl(baseUrl, 'udap://fhirlabs.net/?a=b&c')).toBe(
      `${discoveryUrl}?community=udap%3A%2F%2Ffhirlabs.net%2F%3Fa%3Db%26c`,
    )
  })

  it('refuses a blank base URL', () => {
    expect(() => udapDiscoveryUrl('  ')).toThrow(ConfigurationError)
  })
})

describe('discoverUdapMetadata', () => {
  it('answers the same whatever the logger does: a throwing or rejecting logger changes nothing', async () => {
    const document = metadataDocument(await signedMetadata(pki, { claims: signedClaims(pki.now) }))
    const failing = {
      info: () => {
        throw new Error('logger down')
      },
      warn: () => Promise.reject(new Error('logger down')),
      error: () => {
        throw new Error('logger down')
      },
    } as never
    const metadata = await discover({
      fetch: discoveryServer(() => jsonResponse(document)),
      logger: failing,
    })
    expect(metadata).toBeInstanceOf(UdapMetadata)
    // A failure is still the discovery's own, not the logger's: error() throws while it reports.
    const failure = await discoveryFailure(
      discover({ fetch: discoveryServer(() => jsonResponse({})), logger: failing }),
    )
    expect(failure.message).not.toContain('logger down')
  })

  it('GETs the discovery URL and returns verified metadata whose signed endpoints win', async () => {
    const claims = signedClaims(pki.now, {
      token_endpoint: 'https://auth.example.test/signed/token',
      registration_endpoint: 'https://auth.example.test/signed/register',
      authorization_endpoint: 'https://auth.example.test/signed/authorize',
    })
    const document = metadataDocument(await signedMetadata(pki, { claims }), {
      authorization_endpoint: authorizationEndpoint,
      grant_types_supported: ['authorization_code', 'client_credentials'],
    })
    const fetch = discoveryServer(() => jsonResponse(document))
    const logger = captureLogger()
    const metadata = await discover({ fetch, logger })
    expect(fetch.calls).toHaveLength(1)
    expect(fetch.calls[0]).toMatchObject({
      method: 'GET',
      url: discoveryUrl,
      redirect: 'manual',
    })
    expect(metadata).toBeInstanceOf(UdapMetadata)
    expect(metadata.tokenEndpoint).toBe('https://auth.example.test/signed/token')
    expect(metadata.registrationEndpoint).toBe('https://auth.example.test/signed/register')
    expect(metadata.authorizationEndpoint).toBe('https://auth.example.test/signed/authorize')
    expect(metadata.raw).toEqual(document)
    expect(metadata.signedClaims).toEqual(claims)
    expect(metadata.serverCertificate.subjectAltNameUris).toContain(baseUrl)
    const differing = logger.entries.filter(
      (entry) => entry.fields?.event === 'udap.discovery.unsigned-endpoint-differs',
    )
    expect(differing.map((entry) => entry.fields?.field)).toEqual([
      'token_endpoint',
      'registration_endpoint',
      'authorization_endpoint',
    ])
    expect(
      logger.entries.filter((entry) => entry.level === 'info').map((entry) => entry.fields?.event),
    ).toEqual(['udap.discovery.started', 'udap.discovery.verified'])
  })

  it('takes every metadata value the signed_metadata carries over the unsigned one (IG STU2 §2.3)', async () => {
    const claims = signedClaims(pki.now, {
      token_endpoint_auth_signing_alg_values_supported: ['ES384'],
      registration_endpoint_jwt_signing_alg_values_supported: ['ES256'],
      udap_authorization_extensions_required: [],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      authorization_endpoint: authorizationEndpoint,
      scopes_supported: ['openid', 'udap', 'user/*.rs'],
      udap_profiles_supported: ['udap_dcr', 'udap_authn', 'udap_to'],
    })
    const document = metadataDocument(await signedMetadata(pki, { claims }))
    const logger = captureLogger()
    const metadata = await discover({
      fetch: discoveryServer(() => jsonResponse(document)),
      logger,
    })
    expect(metadata.tokenEndpointAuthSigningAlgValuesSupported).toEqual(['ES384'])
    expect(metadata.registrationEndpointJwtSigningAlgValuesSupported).toEqual(['ES256'])
    expect(metadata.udapAuthorizationExtensionsRequired).toEqual([])
    expect(metadata.requiresB2bExtension()).toBe(false)
    expect(metadata.grantTypesSupported).toEqual(['authorization_code', 'refresh_token'])
    expect(metadata.supportsClientCredentials()).toBe(false)
    expect(metadata.supportsRefreshToken()).toBe(true)
    expect(metadata.supportsTieredOAuth()).toBe(true)
    // Values the signed claims leave out still come from the document; raw stays as received.
    expect(metadata.udapAuthorizationExtensionsSupported).toEqual(['hl7-b2b'])
    expect(metadata.raw).toEqual(document)
    const differing = logger.entries.filter(
      (entry) => entry.fields?.event === 'udap.discovery.unsigned-value-differs',
    )
    expect(differing.map((entry) => entry.fields?.field)).toEqual([
      'udap_profiles_supported',
      'udap_authorization_extensions_required',
      'grant_types_supported',
      'scopes_supported',
      'token_endpoint_auth_signing_alg_values_supported',
      'registration_endpoint_jwt_signing_alg_values_supported',
    ])
  })

  it('judges signed metadata values by the same structural rules as unsigned ones', async () => {
    const claims = signedClaims(pki.now, { token_endpoint_auth_signing_alg_values_supported: [] })
    const document = metadataDocument(await signedMetadata(pki, { claims }))
    const error = await discoveryFailure(
      discover({ fetch: discoveryServer(() => jsonResponse(document)) }),
    )
    expect(error.message).toMatch(
      /signed_metadata.*token_endpoint_auth_signing_alg_values_supported is empty/,
    )
    const tolerated = signedClaims(pki.now, { scopes_supported: 'openid udap' })
    const logger = captureLogger()
    const metadata = await discover({
      fetch: discoveryServer(async () =>
        jsonResponse(metadataDocument(await signedMetadata(pki, { claims: tolerated }))),
      ),
      logger,
    })
    expect(metadata.scopesSupported).toEqual([])
    expect(
      logger.entries.some(
        (entry) =>
          entry.level === 'warn' &&
          /signed_metadata.*scopes_supported is not an array/.test(entry.message),
      ),
    ).toBe(true)
  })

  it('sends the community parameter', async () => {
    const document = metadataDocument(await signedMetadata(pki))
    const fetch = discoveryServer(
      () => jsonResponse(document),
      `${discoveryUrl}?community=udap%3A%2F%2Ffhirlabs.net%2F`,
    )
    await discover({ fetch, community: 'udap://fhirlabs.net/' })
    expect(fetch.calls[0]?.url).toBe(`${discoveryUrl}?community=udap%3A%2F%2Ffhirlabs.net%2F`)
  })

  describe('checks before any request', () => {
    const cases: [string, Partial<DiscoverUdapOptions>, string][] = [
      ['trustedAnchors missing', { trustedAnchors: undefined as never }, 'trustedAnchors'],
      ['trustedAnchors empty', { trustedAnchors: [] }, 'trustedAnchors'],
      ['trustedAnchors not parseable', { trustedAnchors: ['not a certificate'] }, 'trustedAnchors'],
      // crls may be omitted (fetched from distribution points, issue 30); revocation is checked.
      ['crls null', { crls: null as never }, 'crls'],
      ['revocation not an object', { revocation: true as never }, 'revocation'],
      [
        'revocation with an unknown option',
        { revocation: { fetched: true } as never },
        'revocation',
      ],
      ['revocation fetch not a boolean', { revocation: { fetch: 'no' } as never }, 'revocation'],
      ['revocation cache not a store', { revocation: { cache: new Map() } as never }, 'revocation'],
      ['revocation an array', { revocation: [] as never }, 'revocation'],
      [
        'revocation whose keys cannot be read',
        {
          revocation: new Proxy(
            {},
            {
              ownKeys() {
                throw new Error('trap')
              },
            },
          ) as never,
        },
        'revocation',
      ],
      [
        'revocation whose fetch getter throws',
        {
          revocation: Object.defineProperty({}, 'fetch', {
            enumerable: true,
            get() {
              throw new Error('getter')
            },
          }) as never,
        },
        'revocation',
      ],
      ['crls not an array', { crls: 'crl' as never }, 'crls'],
      ['crls with a non-CRL entry', { crls: [42 as never] }, 'crls'],
      ['community not a URI', { community: 'fhirlabs' }, 'community'],
      ['community blank', { community: '' }, 'community'],
      ['baseUrl blank', { baseUrl: '' }, 'baseUrl'],
      ['crypto missing', { crypto: undefined as never }, 'crypto'],
      ['now not a function', { now: new Date() as never }, 'now'],
    ]
    for (const [name, overrides, attribute] of cases) {
      it(`refuses ${name} without a request`, async () => {
        const fetch = fakeFetch()
        await expect(discover({ fetch, ...overrides })).rejects.toMatchObject({
          name: 'ConfigurationError',
          invalidAttribute: attribute,
        })
        expect(fetch.calls).toHaveLength(0)
      })
    }
  })

  describe('responses', () => {
    it('reports 404 as a server without UDAP support', async () => {
      const error = await discoveryFailure(
        discover({ fetch: discoveryServer(() => new Response('', { status: 404 })) }),
      )
      expect(error).toMatchObject({ status: 404, endpoint: discoveryUrl })
      expect(error.message).toMatch(/does not support UDAP/)
    })

    it('reports 204 for a community as an unrecognised community', async () => {
      const fetch = discoveryServer(
        () => new Response(null, { status: 204 }),
        `${discoveryUrl}?community=udap%3A%2F%2Funknown.example%2F`,
      )
      const error = await discoveryFailure(
        discover({ fetch, community: 'udap://unknown.example/' }),
      )
      expect(error.status).toBe(204)
      expect(error.message).toMatch(/community not recognised.*udap:\/\/unknown\.example\//)
      const plain = await discoveryFailure(
        discover({ fetch: discoveryServer(() => new Response(null, { status: 204 })) }),
      )
      expect(plain.message).toMatch(/returned no UDAP metadata/)
    })

    it('reports other failing statuses with the status', async () => {
      const error = await discoveryFailure(
        discover({ fetch: discoveryServer(() => jsonResponse({ error: 'x' }, 503)) }),
      )
      expect(error.status).toBe(503)
      expect(error.message).toMatch(/HTTP 503/)
    })

    it('reports a body that is not a JSON object', async () => {
      const notJson = await discoveryFailure(
        discover({ fetch: discoveryServer(() => new Response('<html>', { status: 200 })) }),
      )
      expect(notJson.cause).toBeInstanceOf(HttpError)
      expect(notJson.message).toMatch(/not valid JSON/)
      const array = await discoveryFailure(
        discover({ fetch: discoveryServer(() => jsonResponse([1, 2])) }),
      )
      expect(array.message).toMatch(/not an object/)
    })

    it('reports a transport failure with the HttpError as cause', async () => {
      const fetch = discoveryServer(() => Promise.reject(new TypeError('fetch failed')))
      const error = await discoveryFailure(discover({ fetch }))
      expect(error.cause).toBeInstanceOf(HttpError)
      expect((error.cause as HttpError).reason).toBe('network')
    })

    it('refuses an HTTP base URL unless it is loopback under allowInsecureLocalhost', async () => {
      const fetch = fakeFetch()
      const error = await discoveryFailure(
        discover({ fetch, baseUrl: 'http://fhir.example.test/r4' }),
      )
      expect((error.cause as HttpError).reason).toBe('insecure-url')
      expect(fetch.calls).toHaveLength(0)
    })
  })

  describe('validation failures', () => {
    it('fails on a structurally unusable document, logging an error', async () => {
      const logger = captureLogger()
      const document = metadataDocument(await signedMetadata(pki), { token_endpoint: undefined })
      const error = await discoveryFailure(
        discover({ fetch: discoveryServer(() => jsonResponse(document)), logger }),
      )
      expect(error.message).toMatch(/token_endpoint is missing/)
      expect(logger.entries.filter((entry) => entry.level === 'error')).toHaveLength(1)
    })

    it('never returns metadata whose signed_metadata fails, naming the check', async () => {
      // Signed by the test PKI's revoked leaf, which the current RSA intermediate CRL lists.
      const revoked = pki.leaf('revoked')
      const document = metadataDocument(
        await signedMetadata(pki, {
          chainDer: revoked.chainDer,
          key: revoked.privateKeyPem,
          claims: signedClaims(pki.now, { iss: clientUri, sub: clientUri }),
        }),
      )
      const fetch = discoveryServer(() => jsonResponse(document), `${clientUri}/.well-known/udap`)
      const error = await discoveryFailure(discover({ fetch, baseUrl: clientUri }))
      expect(error.message).toMatch(
        /signed_metadata .* failed validation: the x5c certificate chain is not trusted \(revoked\)/,
      )
      expect(error.cause).toBeInstanceOf(CertificateChainError)
      expect(error.endpoint).toBe(`${clientUri}/.well-known/udap`)
    })

    it('uses the injected clock', async () => {
      const document = metadataDocument(await signedMetadata(pki))
      const fetch = discoveryServer(() => jsonResponse(document))
      const later = new Date(pki.now.getTime() + 2 * 3_600_000)
      const error = await discoveryFailure(discover({ fetch, now: () => later }))
      expect(error.message).toMatch(/exp is in the past/)
    })

    it('accepts the base URL with a trailing slash: it is not significant (DESIGN §12)', async () => {
      const document = metadataDocument(await signedMetadata(pki))
      const fetch = discoveryServer(() => jsonResponse(document))
      const metadata = await discover({ fetch, baseUrl: `${baseUrl}/` })
      expect(fetch.calls[0]?.url).toBe(discoveryUrl)
      expect(metadata.signedClaims.iss).toBe(baseUrl)
    })

    it('logs tolerated deviations as warnings and still succeeds', async () => {
      const logger = captureLogger()
      const document = metadataDocument(await signedMetadata(pki), {
        udap_profiles_supported: ['udap_dcr', 'udap_authn'],
      })
      const metadata = await discover({
        fetch: discoveryServer(() => jsonResponse(document)),
        logger,
      })
      expect(metadata.tokenEndpoint).toBe(tokenEndpoint)
      expect(metadata.registrationEndpoint).toBe(registrationEndpoint)
      const warnings = logger.entries.filter((entry) => entry.level === 'warn')
      expect(warnings).toHaveLength(1)
      expect(warnings[0]?.message).toMatch(/lacks udap_authz/)
    })
  })
})
