import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { expect, it } from 'vitest'
import {
  cancelUdapRegistration,
  createSoftwareStatement,
  discoverUdapMetadata,
  normalizeRegistrationMetadata,
  prepareUdapSigner,
  registerUdapClient,
  requestUdapClientCredentialsToken,
} from '../src/index.js'
import { fakeFetch, jsonResponse } from './support/fake-fetch.js'
import { captureLogger } from './support/logger.js'
import {
  baseUrl,
  clientUri,
  createTestPki,
  registrationEndpoint,
  tokenEndpoint,
} from './support/pki.js'
import { metadataDocument, signedMetadata } from './support/udap-server.js'
import { verifyWithX5c } from './support/verify.js'

it('walks discovery, registration, a B2B token request and cancellation with the functions alone', async () => {
  const pki = await createTestPki()
  const crypto = createNodeCryptoBackend()
  const logger = captureLogger()
  const now = () => pki.now
  const fetch = fakeFetch(
    () =>
      jsonResponse(
        metadataDocument(signedMetadata(pki), {
          token_endpoint_auth_signing_alg_values_supported: ['ES384', 'RS256'],
        }),
      ),
    () => jsonResponse({ client_id: 'client-123', grant_types: ['client_credentials'] }, 201),
    () => jsonResponse({ access_token: 'access', token_type: 'Bearer', expires_in: 300 }),
    () => jsonResponse({ client_id: 'client-123', grant_types: [] }, 200),
  )
  const metadata = await discoverUdapMetadata({
    baseUrl,
    crypto,
    trustedAnchors: pki.anchors,
    crls: pki.crls,
    now,
    logger,
    fetch,
  })

  const identity = {
    crypto,
    privateKey: pki.clientRsa.privateKeyPem,
    certificateChain: pki.clientRsa.chainDer,
    clientUri,
    now: pki.now,
  }
  const registrationSigner = await prepareUdapSigner({
    ...identity,
    advertisedAlgorithms: metadata.registrationEndpointJwtSigningAlgValuesSupported,
  })
  const metadataInput = {
    client_name: 'Flow client',
    contacts: ['mailto:ops@example.org'],
    scope: 'system/Patient.rs',
  }
  const softwareStatement = await createSoftwareStatement({
    claims: normalizeRegistrationMetadata(
      { ...metadataInput, grant_types: ['client_credentials'] },
      { operation: 'register' },
    ),
    clientUri,
    registrationEndpoint: metadata.registrationEndpoint,
    signer: registrationSigner.signer,
    now,
  })
  const registration = await registerUdapClient({
    registrationEndpoint: metadata.registrationEndpoint,
    softwareStatement,
    fetch,
  })

  const tokenSigner = await prepareUdapSigner({
    ...identity,
    advertisedAlgorithms: metadata.tokenEndpointAuthSigningAlgValuesSupported,
  })
  expect(tokenSigner.signer.alg).toBe('RS256')
  const token = await requestUdapClientCredentialsToken({
    tokenEndpoint: metadata.tokenEndpoint,
    issuer: registration.client_id,
    signer: tokenSigner.signer,
    scopes: ['system/Patient.rs'],
    b2b: {
      organizationId: 'https://example.org/org/1',
      purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
    },
    now,
    fetch,
  })
  expect(token.access_token).toBe('access')

  const cancellation = await cancelUdapRegistration({
    registrationEndpoint: metadata.registrationEndpoint,
    softwareStatement: await createSoftwareStatement({
      claims: normalizeRegistrationMetadata(metadataInput, { operation: 'cancel' }),
      clientUri,
      registrationEndpoint: metadata.registrationEndpoint,
      signer: registrationSigner.signer,
    }),
    fetch,
  })
  expect(cancellation.grant_types).toEqual([])

  expect(fetch.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
    `GET ${baseUrl}/.well-known/udap`,
    `POST ${registrationEndpoint}`,
    `POST ${tokenEndpoint}`,
    `POST ${registrationEndpoint}`,
  ])
  const assertion = new URLSearchParams(fetch.requests[2]?.body).get('client_assertion') ?? ''
  expect((await verifyWithX5c(assertion, pki.now)).claims.iss).toBe('client-123')
  // Logs name endpoints and events only: no JWT (signed metadata, statement, assertion) in them.
  const logged = JSON.stringify(logger.entries)
  expect(logged).not.toMatch(/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./)
  expect(logged).not.toContain(assertion)
  expect(logged).not.toContain(softwareStatement)
})
