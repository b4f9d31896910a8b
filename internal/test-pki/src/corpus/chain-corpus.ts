/**
 * A generated corpus of certificate chains for differential testing against OpenSSL (DESIGN
 * §11): each case is a root, zero to two intermediates and a leaf, with random combinations of
 * key usage, basicConstraints, path length, name constraints (URI, DNS, email; permitted and
 * excluded), self-issued intermediates, unknown extensions, validity windows, CRLs (missing, stale, not yet valid, badly
 * signed, revoking, scoped, with unknown critical extensions) and chain order.
 *
 * Deterministic: every choice comes from a {@link seededRandom} seeded with the corpus seed and
 * the case number, and keys are derived from the seed, so a seed always names the same cases
 * (only ECDSA signature bytes differ between runs). Node only (node:crypto signs).
 */
import {
  type CertificateAuthority,
  type CertificateAuthorityOptions,
  type CrlOptions,
  createCertificateAuthority,
  deriveTestKeyPair,
  type IssueCertificateOptions,
  type IssuedCertificate,
  type KeyUsageName,
  type NameConstraintsOptions,
  type NameSubtrees,
  type RawExtension,
  type TestKeyPair,
  unknownCriticalExtension,
} from '../issuer/index.js'
import { type SeededRandom, seededRandom } from './seeded-random.js'

/** One generated chain with everything needed to validate it. */
export interface CorpusCase {
  /** `corpus-0042`. */
  readonly name: string
  /**
   * What was varied, as `role:choice` (`intermediate-1:key-usage-absent`, `leaf:expired`,
   * `root-crl:stale`, `chain:order-swapped`, …); empty for a plain valid chain.
   */
  readonly tags: readonly string[]
  /** As a client would send it: leaf first (unless `chain:order-swapped`), root sometimes. */
  readonly chainDer: readonly Uint8Array[]
  readonly trustAnchorsDer: readonly Uint8Array[]
  readonly crlsDer: readonly Uint8Array[]
}

/** The time every corpus verdict is judged at. */
export const corpusReferenceTime = new Date('2027-01-01T00:00:00Z')

const windows = {
  valid: {
    notBefore: new Date('2025-01-01T00:00:00Z'),
    notAfter: new Date('2045-01-01T00:00:00Z'),
  },
  expired: {
    notBefore: new Date('2020-01-01T00:00:00Z'),
    notAfter: new Date('2024-01-01T00:00:00Z'),
  },
  'not-yet-valid': {
    notBefore: new Date('2040-01-01T00:00:00Z'),
    notAfter: new Date('2050-01-01T00:00:00Z'),
  },
} as const

/** Hosts the names and the constraint bases are drawn from, so that both match and miss. */
const hosts = ['client.example.test', 'app.example.test', 'example.test', 'client.other.test']
const constraintBases: Readonly<Record<keyof NameSubtrees, readonly string[]>> = {
  uris: ['.example.test', 'client.example.test', '.other.test', 'example.test'],
  dnsNames: ['example.test', '.example.test', 'other.test', 'client.example.test'],
  emails: ['example.test', '.example.test', 'ops@client.example.test', 'other.test'],
}

/**
 * Generates `size` cases for `seed`. About 2 ms per case on a free core (P-256/P-384 keys are
 * derived once per pool slot and reused across cases; never within one chain).
 */
export async function generateChainCorpus(options: {
  readonly seed: string
  readonly size: number
}): Promise<CorpusCase[]> {
  const keys = new Map<string, TestKeyPair>()
  const keyFor = (role: string, slot: number, keyType: 'p256' | 'p384'): TestKeyPair => {
    const id = `${options.seed}/${role}/${slot}/${keyType}`
    let key = keys.get(id)
    if (key === undefined) {
      key = deriveTestKeyPair(id, keyType)
      keys.set(id, key)
    }
    return key
  }
  const cases: CorpusCase[] = []
  for (let index = 0; index < options.size; index++) {
    cases.push(await generateCase(index, seededRandom(`${options.seed}/${index}`), keyFor))
  }
  return cases
}

type KeyFor = (role: string, slot: number, keyType: 'p256' | 'p384') => TestKeyPair

async function generateCase(
  index: number,
  random: SeededRandom,
  keyFor: KeyFor,
): Promise<CorpusCase> {
  const name = `corpus-${String(index).padStart(4, '0')}`
  const tags: string[] = []
  const slot = index % 7
  const depth = random.weighted([
    [0, 2],
    [1, 5],
    [2, 3],
  ])
  const root = await createCertificateAuthority({
    name: `Corpus ${index} Root`,
    serial: random.serial(),
    keyPair: keyFor('root', slot, random.pick(['p256', 'p384'] as const)),
    ...caProfile(random, 'root', tags),
  })
  const authorities: CertificateAuthority[] = [root]
  for (let level = 1; level <= depth; level++) {
    // Sometimes the first intermediate is self-issued (the root's name, another key: a key
    // rollover), which path length does not count and name constraints do not look at.
    const selfIssued = level === 1 && random.chance(0.06)
    if (selfIssued) tags.push('intermediate-1:self-issued')
    authorities.push(
      await createCertificateAuthority({
        name: selfIssued ? `Corpus ${index} Root` : `Corpus ${index} Intermediate ${level}`,
        ...(selfIssued ? { organizationalUnit: 'Root' } : {}),
        serial: random.serial(),
        keyPair: keyFor(`intermediate-${level}`, slot, 'p256'),
        issuer: authorities[level - 1] as CertificateAuthority,
        ...caProfile(random, `intermediate-${level}`, tags),
      }),
    )
  }
  const issuer = authorities[authorities.length - 1] as CertificateAuthority
  const leaf = await issuer.issue({
    commonName: `Corpus ${index} Leaf`,
    serial: random.serial(),
    keyPair: keyFor('leaf', slot, 'p256'),
    ...leafProfile(random, tags),
  })
  // Each CA's CRL; its "child" is the certificate it issued in this path.
  const children: IssuedCertificate[] = [...authorities.slice(1), leaf]
  const crlsDer: Uint8Array[] = []
  authorities.forEach((authority, level) => {
    const role = level === 0 ? 'root-crl' : `intermediate-${level}-crl`
    const crl = crlFor(random, authority, children[level] as IssuedCertificate, role, tags)
    if (crl !== undefined) crlsDer.push(crl)
  })
  const intermediates = authorities.slice(1).reverse()
  let sent = intermediates.map((authority) => authority.certificateDer)
  if (sent.length === 2 && random.chance(0.04)) {
    sent = [...sent].reverse()
    tags.push('chain:order-swapped')
  }
  if (random.chance(0.3)) {
    sent.push(root.certificateDer)
    tags.push('chain:root-included')
  }
  return {
    name,
    tags,
    chainDer: [leaf.certificateDer, ...sent],
    trustAnchorsDer: [root.certificateDer],
    crlsDer,
  }
}

function validity(
  random: SeededRandom,
  role: string,
  tags: string[],
): (typeof windows)[keyof typeof windows] {
  const choice = random.weighted<keyof typeof windows>([
    ['valid', 94],
    ['expired', 3],
    ['not-yet-valid', 3],
  ])
  if (choice !== 'valid') tags.push(`${role}:${choice}`)
  return windows[choice]
}

function extraExtensions(random: SeededRandom, role: string, tags: string[]): RawExtension[] {
  const choice = random.weighted([
    ['none', 94],
    ['unknown-critical', 3],
    ['unknown-not-critical', 3],
  ] as const)
  if (choice === 'none') return []
  tags.push(`${role}:extension-${choice}`)
  return [{ ...unknownCriticalExtension(), critical: choice === 'unknown-critical' }]
}

function caProfile(
  random: SeededRandom,
  role: string,
  tags: string[],
): Omit<CertificateAuthorityOptions, 'name'> {
  const usage = random.weighted<readonly [string, readonly KeyUsageName[] | null | undefined]>([
    [['default', undefined], 70],
    [['absent', null], 6],
    [['cert-and-crl-sign', ['keyCertSign', 'cRLSign']], 10],
    [['no-key-cert-sign', ['digitalSignature', 'cRLSign']], 5],
    [['no-crl-sign', ['digitalSignature', 'keyCertSign']], 5],
  ])
  if (usage[0] !== 'default') tags.push(`${role}:key-usage-${usage[0]}`)
  const isCertificateAuthority = !random.chance(0.03)
  if (!isCertificateAuthority) tags.push(`${role}:not-a-ca`)
  const pathLength = random.weighted<number | undefined>([
    [undefined, 70],
    [0, 12],
    [1, 10],
    [2, 8],
  ])
  if (pathLength !== undefined) tags.push(`${role}:path-length-${pathLength}`)
  const constraints = random.chance(0.2) ? nameConstraints(random) : undefined
  if (constraints !== undefined) tags.push(`${role}:name-constraints`)
  return {
    ...validity(random, role, tags),
    isCertificateAuthority,
    ...(usage[1] === undefined ? {} : { keyUsage: usage[1] }),
    ...(pathLength === undefined ? {} : { pathLengthConstraint: pathLength }),
    ...(constraints === undefined ? {} : { nameConstraints: constraints }),
    extraExtensions: extraExtensions(random, role, tags),
  }
}

function nameConstraints(random: SeededRandom): NameConstraintsOptions {
  const subtrees = (): NameSubtrees | undefined => {
    const chosen: Record<string, string[]> = {}
    for (const form of ['uris', 'dnsNames', 'emails'] as const) {
      if (!random.chance(0.5)) continue
      const bases = [random.pick(constraintBases[form])]
      if (random.chance(0.3)) bases.push(random.pick(constraintBases[form]))
      chosen[form] = [...new Set(bases)]
    }
    return Object.keys(chosen).length === 0 ? undefined : chosen
  }
  const permitted = random.chance(0.6) ? subtrees() : undefined
  const excluded = random.chance(0.5) ? subtrees() : undefined
  if (permitted === undefined && excluded === undefined)
    return { permitted: { uris: [random.pick(constraintBases.uris)] } }
  return {
    ...(permitted === undefined ? {} : { permitted }),
    ...(excluded === undefined ? {} : { excluded }),
  }
}

function leafProfile(
  random: SeededRandom,
  tags: string[],
): Omit<IssueCertificateOptions, 'commonName'> {
  const usage = random.weighted<readonly [string, readonly KeyUsageName[] | null | undefined]>([
    [['default', undefined], 60],
    [['absent', null], 10],
    [['signature-and-encipherment', ['digitalSignature', 'keyEncipherment']], 10],
    [['signature-and-non-repudiation', ['digitalSignature', 'nonRepudiation']], 10],
    [['encipherment-only', ['keyEncipherment']], 6],
    [['key-agreement-only', ['keyAgreement']], 4],
  ])
  if (usage[0] !== 'default') tags.push(`leaf:key-usage-${usage[0]}`)
  const dnsNames = random.chance(0.3) ? [random.pick(hosts)] : []
  const emails = random.chance(0.3) ? [`${random.pick(['ops', 'dev'])}@${random.pick(hosts)}`] : []
  const corrupt = random.chance(0.02)
  if (corrupt) tags.push('leaf:bad-signature')
  return {
    ...validity(random, 'leaf', tags),
    sanUris: [`https://${random.pick(hosts)}/app`],
    ...(dnsNames.length === 0 ? {} : { sanDnsNames: dnsNames }),
    ...(emails.length === 0 ? {} : { sanEmails: emails }),
    ...(usage[1] === undefined ? {} : { keyUsage: usage[1] }),
    extraExtensions: extraExtensions(random, 'leaf', tags),
    corruptSignature: corrupt,
  }
}

type CrlKind =
  | 'current'
  | 'missing'
  | 'stale'
  | 'not-yet-valid'
  | 'bad-signature'
  | 'revokes-child'
  | 'no-next-update'
  | 'unknown-critical'
  | 'only-ca-certificates'

function crlFor(
  random: SeededRandom,
  authority: CertificateAuthority,
  child: IssuedCertificate,
  role: string,
  tags: string[],
): Uint8Array | undefined {
  const kind = random.weighted<CrlKind>([
    ['current', 85],
    ['missing', 3],
    ['stale', 3],
    ['not-yet-valid', 2],
    ['bad-signature', 2],
    ['revokes-child', 3],
    ['no-next-update', 2],
    ['unknown-critical', 1.5],
    ['only-ca-certificates', 1.5],
  ])
  if (kind !== 'current') tags.push(`${role}:${kind}`)
  if (kind === 'missing') return undefined
  const options: CrlOptions = {
    thisUpdate: new Date(
      kind === 'not-yet-valid' ? '2030-01-01T00:00:00Z' : '2025-01-01T00:00:00Z',
    ),
    ...(kind === 'no-next-update'
      ? {}
      : {
          nextUpdate: new Date(kind === 'stale' ? '2026-06-01T00:00:00Z' : '2045-01-01T00:00:00Z'),
        }),
    ...(kind === 'revokes-child' ? { revokedSerials: [child.serialNumber] } : {}),
    ...(kind === 'bad-signature' ? { corruptSignature: true } : {}),
    ...(kind === 'unknown-critical' ? { extraExtensions: [unknownCriticalExtension()] } : {}),
    ...(kind === 'only-ca-certificates'
      ? { issuingDistributionPoint: { onlyContainsCACerts: true } }
      : {}),
  }
  return authority.crl(options).crlDer
}
