/**
 * Node only: exact SAN comparison against server certificates minted on the spot with other
 * spellings of the base URL in their SAN, which the committed test PKI does not have. The
 * portable rules of `verifySignedMetadata` run everywhere in `signed-metadata.test.ts`.
 */
import { DiscoveryError } from '@fhir-auth/core'
import { encodePem } from '@fhir-auth/core/backend'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { beforeAll, describe, expect, it } from 'vitest'
import { verifySignedMetadata } from '../src/index.js'
import { createIssuedPki, type IssuedPki } from './support/issued-pki.js'
import { x5cOf } from './support/jws.js'
import { baseUrl } from './support/pki.js'
import { signedClaims, signedMetadata } from './support/udap-server.js'

let pki: IssuedPki

beforeAll(async () => {
  pki = await createIssuedPki()
})

/** Verifies metadata signed with the server's key by a certificate whose SANs are `sanUris`. */
async function verifyWithSans(
  sanUris: string[],
  claims: Record<string, unknown>,
  verifiedBaseUrl = baseUrl,
) {
  const certificate = await pki.intermediate.issue({
    commonName: 'FHIR server variant',
    sanUris,
    keyPair: pki.server.keyPair,
  })
  return verifySignedMetadata({
    jwt: await signedMetadata(pki, { chainDer: certificate.chainDer, claims }),
    baseUrl: verifiedBaseUrl,
    unsignedMetadata: {},
    crypto: createNodeCryptoBackend(),
    trustedAnchors: pki.anchors,
    crls: pki.crls,
    now: pki.now,
    allowInsecureLocalhost: false,
  })
}

async function refusalMessage(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(DiscoveryError)
  return (error as DiscoveryError).message
}

describe('verifySignedMetadata against minted server certificates', () => {
  it('compares iss and SAN exactly (case and trailing slash matter); iss and the base URL but for a trailing slash', async () => {
    const upperCaseHost = baseUrl.replace('client.example', 'CLIENT.example')
    expect(await refusalMessage(verifyWithSans([upperCaseHost], signedClaims(pki.now)))).toMatch(
      /not a URI subject alternative name/,
    )
    const slashedUrl = `${baseUrl}/`
    expect(await refusalMessage(verifyWithSans([slashedUrl], signedClaims(pki.now)))).toMatch(
      /not a URI subject alternative name/,
    )
    // A trailing slash on a base URL is not significant (DESIGN §12), on either side.
    const slashedClaims = signedClaims(pki.now, { iss: slashedUrl, sub: slashedUrl })
    await expect(verifyWithSans([slashedUrl], slashedClaims)).resolves.toMatchObject({
      claims: { iss: slashedUrl },
    })
    await expect(verifyWithSans([slashedUrl], slashedClaims, slashedUrl)).resolves.toMatchObject({
      claims: { iss: slashedUrl },
    })
    await expect(
      verifyWithSans([baseUrl], signedClaims(pki.now), slashedUrl),
    ).resolves.toMatchObject({ claims: { iss: baseUrl } })
    const upperCaseClaims = signedClaims(pki.now, { iss: upperCaseHost, sub: upperCaseHost })
    expect(await refusalMessage(verifyWithSans([upperCaseHost], upperCaseClaims))).toMatch(
      /does not equal the base URL/,
    )
  })
})

describe('verifySignedMetadata with the Node backend', () => {
  it('refuses x5c entries holding PEM text, which the backend would read as PEM', async () => {
    const crypto = createNodeCryptoBackend()
    const verify = async (x5c: string[]) =>
      verifySignedMetadata({
        jwt: await signedMetadata(pki, { header: { x5c } }),
        baseUrl,
        unsignedMetadata: {},
        crypto,
        trustedAnchors: pki.anchors,
        crls: pki.crls,
        now: pki.now,
        allowInsecureLocalhost: false,
      })
    const pemText = (der: Uint8Array) => new TextEncoder().encode(encodePem(der, 'CERTIFICATE'))
    const [leaf, intermediate] = pki.server.chainDer as [Uint8Array, Uint8Array]
    expect(await refusalMessage(verify(x5cOf([pemText(leaf), pemText(intermediate)])))).toMatch(
      /header x5c\[0\] is not an X.509 certificate: x5c entries are standard base64 of DER/,
    )
    expect(await refusalMessage(verify(x5cOf([leaf, pemText(intermediate)])))).toMatch(
      /header x5c\[1\] is not an X.509 certificate: x5c entries are standard base64 of DER/,
    )
    await expect(verify(x5cOf([leaf, intermediate]))).resolves.toBeDefined()
  })
})
