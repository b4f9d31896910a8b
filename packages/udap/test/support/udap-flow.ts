/**
 * One UDAP client's whole life with the stateless functions alone: trusted discovery, signed
 * registration, a B2B client-credentials token and cancellation, against a fake server. Shared by
 * the portable run (WebCrypto backend, committed test PKI) and the Node-only run (node:crypto
 * backend, minted PKI), so both backends walk exactly the same steps.
 */
import type { CryptoBackend } from '@fhir-auth/core'
import { fakeFetch, jsonResponse } from '@fhir-auth/test-utils/fake-fetch'
import { expect } from 'vitest'
import {
  cancelUdapRegistration,
  createSoftwareStatement,
  discoverUdapMetadata,
  normalizeRegistrationMetadata,
  prepareUdapSigner,
  registerUdapClient,
  requestUdapClientCredentialsToken,
} from '../../src/index.js'
import { captureLogger } from './logger.js'
import { baseUrl, clientUri, registrationEndpoint, tokenEndpoint } from './pki.js'
import { type MetadataSigningPki, metadataDocument, signedMetadata } from './udap-server.js'
import { verifyWithX5c } from './verify.js'

/** The PKI the flow needs: trust inputs, the server's signing identity and an RSA client. */
export interface FlowPki extends MetadataSigningPki {
  readonly anchors: readonly string[]
  readonly crls: readonly string[]
  readonly clientRsa: { readonly privateKeyPem: string; readonly chainDer: readonly Uint8Array[] }
}

/** Walks the flow with `crypto`, asserting every step. */
export async function walkUdapFlow(crypto: CryptoBackend, pki: FlowPki): Promise<void> {
  const logger = captureLogger()
  const now = () => pki.now
  const signed = await signedMetadata(pki)
  const fetch = fakeFetch(
    {
      method: 'GET',
      url: `${baseUrl}/.well-known/udap`,
      respond: () =>
        jsonResponse(
          metadataDocument(signed, {
            token_endpoint_auth_signing_alg_values_supported: ['ES384', 'RS256'],
          }),
        ),
    },
    {
      method: 'POST',
      url: registrationEndpoint,
      respond: () =>
        jsonResponse({ client_id: 'client-123', grant_types: ['client_credentials'] }, 201),
    },
    {
      method: 'POST',
      url: tokenEndpoint,
      respond: () =>
        jsonResponse({ access_token: 'access', token_type: 'Bearer', expires_in: 300 }),
    },
    {
      method: 'POST',
      url: registrationEndpoint,
      respond: () => jsonResponse({ client_id: 'client-123', grant_types: [] }, 200),
    },
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

  fetch.assertDone()
  const assertion = new URLSearchParams(fetch.calls[2]?.bodyText).get('client_assertion') ?? ''
  expect((await verifyWithX5c(assertion, pki.now)).claims.iss).toBe('client-123')
  // Logs name endpoints and events only: no JWT (signed metadata, statement, assertion) in them.
  const logged = JSON.stringify(logger.entries)
  expect(logged).not.toMatch(/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./)
  expect(logged).not.toContain(assertion)
  expect(logged).not.toContain(softwareStatement)
}
