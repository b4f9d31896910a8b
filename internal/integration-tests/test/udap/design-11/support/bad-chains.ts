/**
 * DESIGN §11, second paragraph: the client's own chains, good and bad. Every certificate has
 * explicit dates around {@link clock}; every bad chain breaks exactly one rule the client must
 * check locally, and names the `CertificateChainError.reason` DESIGN promises for it.
 */
import type { CertificateChainFailureReason } from '@fhir-auth/core'
import {
  type CertificateAuthority,
  type CertificateAuthorityOptions,
  createCertificateAuthority,
  type IssueCertificateOptions,
  type IssuedCertificate,
  unknownCriticalExtension,
} from '@fhir-auth/test-pki/issuer'

/** The instant every client and sandbox in this suite lives at. */
export const clock = new Date('2031-06-01T00:00:00Z')
export const now = (): Date => clock

const dayMs = 86_400_000
const at = (days: number): Date => new Date(clock.getTime() + days * dayMs)

/** Validity of every certificate that is not meant to be out of date. */
export const valid = { notBefore: at(-30), notAfter: at(300) } as const

/** The client URI: the SAN URI of every client leaf here. */
export const clientUri = 'https://client.example.test/app'

/** What a client is configured with. */
export interface Identity {
  readonly privateKey: string
  readonly certificateChain: readonly Uint8Array[]
}

/**
 * Every kind of bad chain, with the `CertificateChainError.reason` DESIGN §11 promises for it
 * (order, signatures within the chain, CA flags, validity, key usage, path length, name
 * constraints, unknown critical extensions).
 */
export const badChainCases = [
  { kind: 'CAs in the wrong order', reason: 'order' },
  { kind: 'a leaf whose signature does not verify', reason: 'bad-signature' },
  { kind: 'an intermediate whose signature does not verify', reason: 'bad-signature' },
  { kind: 'an intermediate that is not a CA', reason: 'not-a-ca' },
  { kind: 'an expired leaf', reason: 'expired' },
  { kind: 'a leaf not yet valid', reason: 'not-yet-valid' },
  { kind: 'an expired intermediate', reason: 'expired' },
  { kind: 'a CA without keyCertSign', reason: 'key-usage' },
  { kind: 'a leaf whose keyUsage lacks digitalSignature', reason: 'key-usage' },
  { kind: 'pathLenConstraint 0 exceeded', reason: 'path-length' },
  { kind: 'a URI SAN outside the name constraints', reason: 'name-constraints' },
  { kind: 'a URI SAN inside an excluded subtree', reason: 'name-constraints' },
  { kind: 'a DNS SAN outside the name constraints', reason: 'name-constraints' },
  { kind: 'an unknown critical extension on the leaf', reason: 'unknown-critical-extension' },
  { kind: 'an unknown critical extension on a CA', reason: 'unknown-critical-extension' },
] as const satisfies readonly { kind: string; reason: CertificateChainFailureReason }[]

export type BadChainKind = (typeof badChainCases)[number]['kind']

export function identityOf(leaf: IssuedCertificate, chain = leaf.chainDer): Identity {
  return { privateKey: leaf.privateKeyPem, certificateChain: chain }
}

/** Flips the last byte (inside the signature value): parses, does not verify. */
export function corrupt(der: Uint8Array): Uint8Array {
  const copy = new Uint8Array(der)
  copy[copy.length - 1] = (copy[copy.length - 1] as number) ^ 0x01
  return copy
}

function leafOf(issuer: CertificateAuthority, overrides: Partial<IssueCertificateOptions> = {}) {
  return issuer.issue({
    commonName: 'design-11 client',
    sanUris: [clientUri],
    ...valid,
    ...overrides,
  })
}

/** A leaf under a CA that `root` issued (dates {@link valid} unless `ca` gives its own). */
async function leafUnderCa(
  root: CertificateAuthority,
  ca: Omit<CertificateAuthorityOptions, 'issuer' | 'notBefore' | 'notAfter'> &
    Partial<Pick<CertificateAuthorityOptions, 'notBefore' | 'notAfter'>>,
  overrides?: Partial<IssueCertificateOptions>,
): Promise<IssuedCertificate> {
  return leafOf(await createCertificateAuthority({ issuer: root, ...valid, ...ca }), overrides)
}

/**
 * Builds every bad chain under a fresh root that nobody trusts (trust is not the client's to
 * judge, so it must not matter): one kind per entry, each breaking exactly one rule.
 */
export async function buildBadChains(): Promise<Readonly<Record<BadChainKind, Identity>>> {
  const root = await createCertificateAuthority({ name: 'design-11 root', ...valid })
  const intermediate = await createCertificateAuthority({
    name: 'design-11 int',
    issuer: root,
    ...valid,
  })

  // order: leaf, then the upper CA, then the CA that issued the leaf.
  const upper = await createCertificateAuthority({
    name: 'design-11 upper',
    issuer: root,
    ...valid,
  })
  const lower = await createCertificateAuthority({
    name: 'design-11 lower',
    issuer: upper,
    ...valid,
  })
  const deepLeaf = await leafOf(lower)
  const [deepLeafDer, lowerDer, upperDer] = deepLeaf.chainDer as [
    Uint8Array,
    Uint8Array,
    Uint8Array,
  ]

  const brokenLeaf = await leafOf(intermediate, { corruptSignature: true })

  const underNotCa = await leafUnderCa(root, {
    name: 'design-11 not-a-ca',
    isCertificateAuthority: false,
    keyUsage: ['digitalSignature', 'keyCertSign', 'cRLSign'],
  })

  const expiredLeaf = await leafOf(intermediate, { notBefore: at(-60), notAfter: at(-1) })
  const futureLeaf = await leafOf(intermediate, { notBefore: at(1), notAfter: at(300) })
  const underExpired = await leafUnderCa(root, {
    name: 'design-11 expired int',
    notBefore: at(-60),
    notAfter: at(-1),
  })

  const underNoCertSign = await leafUnderCa(root, {
    name: 'design-11 no keyCertSign',
    keyUsage: ['digitalSignature', 'cRLSign'],
  })
  const noDigitalSignature = await leafOf(intermediate, { keyUsage: ['keyAgreement'] })

  const pathLenZero = await createCertificateAuthority({
    name: 'design-11 pathLen 0',
    issuer: root,
    pathLengthConstraint: 0,
    ...valid,
  })
  const belowPathLen = await createCertificateAuthority({
    name: 'design-11 below pathLen 0',
    issuer: pathLenZero,
    ...valid,
  })
  const tooDeep = await leafOf(belowPathLen)

  const outsideConstraints = await leafUnderCa(root, {
    name: 'design-11 constrained',
    nameConstraints: { permitted: { uris: ['.allowed.test'] } },
  })
  const excludedUri = await leafUnderCa(root, {
    name: 'design-11 excluding',
    nameConstraints: { excluded: { uris: ['client.example.test'] } },
  })
  const outsideDns = await leafUnderCa(
    root,
    {
      name: 'design-11 DNS constrained',
      nameConstraints: { permitted: { dnsNames: ['allowed.test'] } },
    },
    { sanDnsNames: ['client.example.test'] },
  )

  const criticalLeaf = await leafOf(intermediate, { extraExtensions: [unknownCriticalExtension()] })
  const underCriticalCa = await leafUnderCa(root, {
    name: 'design-11 critical ext CA',
    extraExtensions: [unknownCriticalExtension()],
  })

  const identities: Record<BadChainKind, Identity> = {
    'CAs in the wrong order': identityOf(deepLeaf, [deepLeafDer, upperDer, lowerDer]),
    'a leaf whose signature does not verify': identityOf(brokenLeaf),
    'an intermediate whose signature does not verify': identityOf(deepLeaf, [
      deepLeafDer,
      corrupt(lowerDer),
      upperDer,
    ]),
    'an intermediate that is not a CA': identityOf(underNotCa),
    'an expired leaf': identityOf(expiredLeaf),
    'a leaf not yet valid': identityOf(futureLeaf),
    'an expired intermediate': identityOf(underExpired),
    'a CA without keyCertSign': identityOf(underNoCertSign),
    'a leaf whose keyUsage lacks digitalSignature': identityOf(noDigitalSignature),
    'pathLenConstraint 0 exceeded': identityOf(tooDeep),
    'a URI SAN outside the name constraints': identityOf(outsideConstraints),
    'a URI SAN inside an excluded subtree': identityOf(excludedUri),
    'a DNS SAN outside the name constraints': identityOf(outsideDns),
    'an unknown critical extension on the leaf': identityOf(criticalLeaf),
    'an unknown critical extension on a CA': identityOf(underCriticalCa),
  }
  return identities
}

/**
 * A good chain under a root nobody trusts (trust is not judged locally); with `withRoot`, the
 * self-signed root ends the chain.
 */
export async function buildUntrustedGoodChain(withRoot = false): Promise<Identity> {
  const root = await createCertificateAuthority({ name: 'design-11 lonely root', ...valid })
  const leaf = await leafUnderCa(root, { name: 'design-11 lonely int' })
  return identityOf(leaf, withRoot ? [...leaf.chainDer, root.certificateDer] : leaf.chainDer)
}
