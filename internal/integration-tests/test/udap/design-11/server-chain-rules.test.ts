/**
 * DESIGN §11 (first paragraph) as a UDAP client sees it when it validates a server's
 * `signed_metadata` chain against its trust anchors: keyCertSign on every CA below the anchor,
 * cRLSign on a CRL's issuer and digitalSignature on the leaf (each only when keyUsage is
 * present) → `key-usage`; pathLenConstraint → `path-length`; URI, DNS and email name constraints
 * → `name-constraints`; an unrecognised critical extension below the anchor →
 * `unknown-critical-extension`. Any failure is a DiscoveryError (DESIGN §5) whose reason the
 * caller can read; each case differs from the accepted control in one certificate.
 */
import { DiscoveryError } from '@fhir-auth/client'
import {
  type CertificateAuthority,
  type CertificateAuthorityOptions,
  createCertificateAuthority,
  generateTestKeyPair,
  type IssueCertificateOptions,
  type TestKeyPair,
  unknownCriticalExtension,
  unknownExtensionOid,
} from '@fhir-auth/test-pki/issuer'
import { beforeAll, describe, expect, it } from 'vitest'
import { clock, valid } from './support/bad-chains.js'
import { expectNoKeyMaterial, failureOf } from './support/refusal.js'
import {
  discoveryClient,
  reasonOf,
  type ServerCase,
  serverBaseUrl,
  serverCase,
  tokenEndpoint,
} from './support/signed-metadata-server.js'

const crlWindow = {
  crlThisUpdate: new Date(clock.getTime() - 86_400_000),
  crlNextUpdate: new Date(clock.getTime() + 30 * 86_400_000),
}

let serverKey: TestKeyPair
let root: CertificateAuthority

beforeAll(async () => {
  serverKey = await generateTestKeyPair('rsa2048')
  root = await createCertificateAuthority({ name: 'design-11 server root', ...valid })
}, 60_000)

/** root → one intermediate (with `intermediate` options) → RSA server leaf (with `leaf` options). */
async function oneIntermediate(
  intermediate: Partial<CertificateAuthorityOptions> = {},
  leaf: Partial<IssueCertificateOptions> = {},
): Promise<ServerCase> {
  const ca = await createCertificateAuthority({
    name: 'design-11 server int',
    issuer: root,
    ...valid,
    ...intermediate,
  })
  const server = await ca.issue({
    commonName: serverBaseUrl,
    sanUris: [serverBaseUrl],
    keyPair: serverKey,
    ...valid,
    ...leaf,
  })
  return serverCase({ root, authorities: [root, ca], server, ...crlWindow })
}

/** root → upper (pathLen `upperPathLength`) → lower → server leaf. */
async function twoIntermediates(upperPathLength: number): Promise<ServerCase> {
  const upper = await createCertificateAuthority({
    name: 'design-11 server upper',
    issuer: root,
    pathLengthConstraint: upperPathLength,
    ...valid,
  })
  const lower = await createCertificateAuthority({
    name: 'design-11 server lower',
    issuer: upper,
    ...valid,
  })
  const server = await lower.issue({
    commonName: serverBaseUrl,
    sanUris: [serverBaseUrl],
    keyPair: serverKey,
    ...valid,
  })
  return serverCase({ root, authorities: [root, upper, lower], server, ...crlWindow })
}

async function expectAccepted(server: ServerCase): Promise<void> {
  const metadata = await discoveryClient(server).serverMetadata({
    trustedAnchors: server.trustedAnchors,
    crls: server.crls,
  })
  expect(metadata.tokenEndpoint).toBe(tokenEndpoint)
}

async function expectRefused(server: ServerCase, reason: string): Promise<void> {
  const error = await failureOf(() =>
    discoveryClient(server).serverMetadata({
      trustedAnchors: server.trustedAnchors,
      crls: server.crls,
    }),
  )
  expect(error).toBeInstanceOf(DiscoveryError)
  expect(reasonOf(error)).toBe(reason)
  expectNoKeyMaterial(error, serverKey.privateKeyPem)
}

describe('DESIGN §11 controls: the same shapes, every rule satisfied, are accepted', () => {
  it('the plain chain', async () => expectAccepted(await oneIntermediate()))
  it('a CA without a keyUsage extension (the rule applies only when present)', async () =>
    expectAccepted(await oneIntermediate({ keyUsage: null })))
  it('a leaf without a keyUsage extension', async () =>
    expectAccepted(await oneIntermediate({}, { keyUsage: null })))
  it('pathLenConstraint 1 with one CA below it', async () =>
    expectAccepted(await twoIntermediates(1)))
  it('a URI SAN inside the permitted subtree (.example.test)', async () =>
    expectAccepted(
      await oneIntermediate({ nameConstraints: { permitted: { uris: ['.example.test'] } } }),
    ))
  it('an unknown extension that is not critical', async () =>
    expectAccepted(
      await oneIntermediate(
        {},
        { extraExtensions: [{ ...unknownCriticalExtension(), critical: false }] },
      ),
    ))
})

describe('DESIGN §11: key-usage', () => {
  it('an intermediate whose keyUsage lacks keyCertSign', async () =>
    expectRefused(
      await oneIntermediate({ keyUsage: ['digitalSignature', 'cRLSign'] }),
      'key-usage',
    ))
  it('a server leaf whose keyUsage lacks digitalSignature (keyEncipherment only)', async () =>
    expectRefused(await oneIntermediate({}, { keyUsage: ['keyEncipherment'] }), 'key-usage'))
  it('a CRL signed by an intermediate whose keyUsage lacks cRLSign', async () =>
    expectRefused(
      await oneIntermediate({ keyUsage: ['digitalSignature', 'keyCertSign'] }),
      'key-usage',
    ))
})

describe('DESIGN §11: path-length', () => {
  it('pathLenConstraint 0 with one more CA below it', async () =>
    expectRefused(await twoIntermediates(0), 'path-length'))
})

describe('DESIGN §11: name-constraints on URI, DNS and email names', () => {
  it('a URI SAN outside the permitted URI subtree', async () =>
    expectRefused(
      await oneIntermediate({ nameConstraints: { permitted: { uris: ['.allowed.test'] } } }),
      'name-constraints',
    ))
  it('a URI SAN inside an excluded URI subtree', async () =>
    expectRefused(
      await oneIntermediate({ nameConstraints: { excluded: { uris: ['fhir.example.test'] } } }),
      'name-constraints',
    ))
  it('a DNS SAN outside the permitted DNS subtree', async () =>
    expectRefused(
      await oneIntermediate(
        { nameConstraints: { permitted: { dnsNames: ['allowed.test'] } } },
        { sanDnsNames: ['fhir.example.test'] },
      ),
      'name-constraints',
    ))
  it('an email SAN outside the permitted email subtree', async () =>
    expectRefused(
      await oneIntermediate(
        { nameConstraints: { permitted: { emails: ['allowed.test'] } } },
        { sanEmails: ['ops@example.test'] },
      ),
      'name-constraints',
    ))
})

describe('DESIGN §11: unknown-critical-extension anywhere below the anchor', () => {
  it(`on the server leaf (${unknownExtensionOid})`, async () =>
    expectRefused(
      await oneIntermediate({}, { extraExtensions: [unknownCriticalExtension()] }),
      'unknown-critical-extension',
    ))
  it('on the intermediate', async () =>
    expectRefused(
      await oneIntermediate({ extraExtensions: [unknownCriticalExtension()] }),
      'unknown-critical-extension',
    ))
})
