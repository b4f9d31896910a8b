/**
 * A generated corpus of small PKIs for the differential test of fetched revocation against
 * `openssl verify -crl_download -crl_check_all`: each case is a root (the anchor), one or two
 * intermediates and a leaf, with random revocation of the leaf and of each intermediate, CRL
 * distribution points present, absent, `ldap:`/`file:` or two of them, each CRL served,
 * missing (404), stale, not yet valid, badly signed, not a CRL, without `nextUpdate` or hanging,
 * and sometimes the top intermediates left out of the chain with an AIA `caIssuers` URL that
 * serves them (DER or PKCS#7 certs-only), 404s or serves another certificate.
 *
 * Every URL is below `origin`, the loopback server that serves {@link RevocationCorpus.documents}
 * (a hanging point is `/hang.crl`, which that server never answers). The root names a
 * distribution point of its own, always served: `-crl_check_all` also checks the anchor, which
 * fhir-auth trusts as given.
 *
 * Deterministic: every choice comes from a {@link seededRandom} seeded with the corpus seed and
 * the case number, and keys are derived from the seed, so a seed always names the same cases
 * (only the port, ECDSA signature bytes and the dates, relative to `now`, differ between runs).
 * Node only (node:crypto signs).
 */
import {
  type CertificateAuthority,
  createCertificateAuthority,
  deriveTestKeyPair,
  type IssuedCertificate,
  type TestKeyPair,
} from '../issuer/index.js'
import { certsOnlyPkcs7 } from '../revocation/certs-only-pkcs7.js'
import { type SeededRandom, seededRandom } from './seeded-random.js'

/** How the loopback server answers at one `http:` distribution point. */
export type CrlServing =
  | 'current'
  | 'no-next-update'
  | 'not-found'
  | 'stale'
  | 'not-yet-valid'
  | 'bad-signature'
  | 'not-a-crl'
  | 'hangs'

/** The servings that give a usable CRL (current, signed by the issuer, covering the certificate). */
export const usableCrlServings: readonly CrlServing[] = ['current', 'no-next-update']

/** One distribution point of a certificate. */
export interface CorpusDistributionPoint {
  readonly url: string
  /** How `url` answers; `undefined` for an `ldap:` or `file:` point. */
  readonly serving: CrlServing | undefined
}

/** How the AIA `caIssuers` URL naming a left-out intermediate answers. */
export type CaIssuersServing = 'der' | 'pkcs7' | 'not-found' | 'wrong-certificate'

/** One certificate below the root, with what its revocation sources and issuer URL do. */
export interface CorpusPathCertificate {
  readonly role: 'leaf' | 'intermediate-1' | 'intermediate-2'
  /** Listed in the CRL its issuer's distribution points serve. */
  readonly revoked: boolean
  readonly distributionPoints: readonly CorpusDistributionPoint[]
  /** How this certificate's `caIssuers` URL answers when its issuer is left out of the chain. */
  readonly caIssuers: CaIssuersServing | undefined
}

/** One generated PKI and the chain a client would send. */
export interface RevocationCorpusCase {
  /** `revocation-0042`. */
  readonly name: string
  /** What was varied, as `role:choice` (`leaf:revoked`, `intermediate-1:points-two`, …). */
  readonly tags: readonly string[]
  /** As a client would send it: leaf first, issuer after issuer, never the root; maybe cut short. */
  readonly chainDer: readonly Uint8Array[]
  readonly anchorDer: Uint8Array
  /**
   * The whole path below the root, leaf first: index = OpenSSL's error depth. The first
   * `chainDer.length` are sent; the rest must come from `caIssuers`.
   */
  readonly path: readonly CorpusPathCertificate[]
}

/** Something the loopback server serves at `path`. */
export interface RevocationCorpusDocument {
  readonly path: string
  readonly body: Uint8Array
  readonly contentType: string
}

export interface RevocationCorpus {
  readonly cases: readonly RevocationCorpusCase[]
  readonly documents: readonly RevocationCorpusDocument[]
}

/** The path of the distribution point the loopback server never answers. */
export const hangingCrlPath = '/hang.crl'

const hour = 3_600_000
const day = 24 * hour

/**
 * Generates `size` cases for `seed` (cases `first` … `first + size - 1`, so a long run can be
 * split), their URLs below `origin` and their dates around `now`.
 */
export async function generateRevocationCorpus(options: {
  readonly seed: string
  readonly size: number
  readonly origin: string
  readonly now: Date
  readonly first?: number
}): Promise<RevocationCorpus> {
  const keys = new Map<string, TestKeyPair>()
  const keyFor = (role: string, slot: number): TestKeyPair => {
    const id = `${options.seed}/${role}/${slot}`
    let key = keys.get(id)
    if (key === undefined) {
      key = deriveTestKeyPair(id, 'p256')
      keys.set(id, key)
    }
    return key
  }
  const cases: RevocationCorpusCase[] = []
  const documents: RevocationCorpusDocument[] = []
  const first = options.first ?? 0
  for (let index = first; index < first + options.size; index++) {
    const random = seededRandom(`${options.seed}/${index}`)
    cases.push(
      await generateCase({ index, random, keyFor, origin: options.origin, now: options.now }, (d) =>
        documents.push(d),
      ),
    )
  }
  return { cases, documents }
}

interface CaseContext {
  readonly index: number
  readonly random: SeededRandom
  readonly keyFor: (role: string, slot: number) => TestKeyPair
  readonly origin: string
  readonly now: Date
}

type Role = CorpusPathCertificate['role']

/** The distribution points of one certificate, before their URLs are known. */
type PointPlan = readonly (CrlServing | 'ldap' | 'file')[]

async function generateCase(
  context: CaseContext,
  serve: (document: RevocationCorpusDocument) => void,
): Promise<RevocationCorpusCase> {
  const { index, random, keyFor, origin, now } = context
  const name = `revocation-${String(index).padStart(4, '0')}`
  const tags: string[] = []
  const slot = index % 7
  const url = (path: string) => `${origin}/${name}/${path}`
  const notBefore = new Date(now.getTime() - day)
  const notAfter = new Date(now.getTime() + 365 * day)

  const intermediateCount = random.weighted([
    [1, 6],
    [2, 4],
  ])
  // The path below the root, top first: intermediate-1, [intermediate-2], leaf.
  const roles: Role[] =
    intermediateCount === 1
      ? ['intermediate-1', 'leaf']
      : ['intermediate-1', 'intermediate-2', 'leaf']
  // How many of the top intermediates the chain leaves out (fetched from caIssuers).
  const leftOut = random.chance(0.15) ? (intermediateCount === 2 && random.chance(0.3) ? 2 : 1) : 0
  if (leftOut > 0) tags.push(`chain:left-out-${leftOut}`)

  const plans = new Map<Role, PointPlan>()
  const revoked = new Map<Role, boolean>()
  const caIssuers = new Map<Role, CaIssuersServing>()
  for (const [position, role] of roles.entries()) {
    plans.set(role, pointPlan(random, role, tags))
    const isRevoked = random.chance(role === 'leaf' ? 0.12 : 0.08)
    if (isRevoked) tags.push(`${role}:revoked`)
    revoked.set(role, isRevoked)
    // A certificate whose issuer is left out names it in caIssuers: the top `leftOut` of the
    // path are left out, so the certificates at positions 1 … leftOut (top first) need theirs.
    if (position > 0 && position <= leftOut) {
      const serving = random.weighted<CaIssuersServing>([
        ['der', 60],
        ['pkcs7', 20],
        ['not-found', 10],
        ['wrong-certificate', 10],
      ])
      tags.push(`${role}:ca-issuers-${serving}`)
      caIssuers.set(role, serving)
    }
  }

  const root = await createCertificateAuthority({
    name: `Revocation Corpus ${index} Root`,
    serial: random.serial(),
    keyPair: keyFor('root', slot),
    notBefore,
    notAfter,
    crlDistributionPoints: [url('root-self.crl')],
  })
  const pointUrls = (role: Role): { urls: string[]; points: CorpusDistributionPoint[] } => {
    const points = (plans.get(role) ?? []).map((planned, position): CorpusDistributionPoint => {
      if (planned === 'ldap')
        return {
          url: `ldap://ldap.example.test/cn=${encodeURIComponent(name)}%20${role}?certificateRevocationList`,
          serving: undefined,
        }
      if (planned === 'file')
        return { url: `file:///var/crl/${name}/${role}.crl`, serving: undefined }
      if (planned === 'hangs') return { url: `${origin}${hangingCrlPath}`, serving: 'hangs' }
      return { url: url(`${role}-${position}.crl`), serving: planned }
    })
    return { urls: points.map((point) => point.url), points }
  }
  const issuerUrl = (role: Role, serving: CaIssuersServing | undefined) =>
    serving === undefined ? undefined : url(`${role}-issuer.${serving === 'pkcs7' ? 'p7c' : 'cer'}`)

  const issued = new Map<Role, IssuedCertificate>()
  const points = new Map<Role, CorpusDistributionPoint[]>()
  let issuer: CertificateAuthority = root
  for (const role of roles) {
    const { urls, points: rolePoints } = pointUrls(role)
    points.set(role, rolePoints)
    const caIssuersUrl = issuerUrl(role, caIssuers.get(role))
    const profile = {
      serial: random.serial(),
      keyPair: keyFor(role, slot),
      notBefore,
      notAfter,
      ...(urls.length === 0 ? {} : { crlDistributionPoints: urls }),
      ...(caIssuersUrl === undefined
        ? {}
        : { authorityInformationAccess: { caIssuers: [caIssuersUrl] } }),
    }
    if (role === 'leaf') {
      issued.set(
        role,
        await issuer.issue({
          commonName: `Revocation Corpus ${index} Leaf`,
          sanUris: ['https://client.example.test/app'],
          ...profile,
        }),
      )
    } else {
      issuer = await createCertificateAuthority({
        name: `Revocation Corpus ${index} ${role === 'intermediate-1' ? 'Intermediate 1' : 'Intermediate 2'}`,
        issuer,
        ...profile,
      })
      issued.set(role, issuer)
    }
  }

  // The CRLs: each issuer's, listing its child when that child is revoked, served as each of
  // the child's points says.
  const issuers = [
    root,
    ...roles.slice(0, -1).map((role) => issued.get(role) as CertificateAuthority),
  ]
  for (const [position, role] of roles.entries()) {
    const authority = issuers[position] as CertificateAuthority
    const child = issued.get(role) as IssuedCertificate
    const revokedSerials = revoked.get(role) === true ? [child.serialNumber] : []
    for (const point of points.get(role) ?? []) {
      const body = crlBody(authority, point.serving, revokedSerials, now)
      if (body !== undefined)
        serve({ path: new URL(point.url).pathname, body, contentType: 'application/pkix-crl' })
    }
    const caIssuersServing = caIssuers.get(role)
    const caIssuersUrl = issuerUrl(role, caIssuersServing)
    if (caIssuersUrl !== undefined && caIssuersServing !== 'not-found') {
      const path = new URL(caIssuersUrl).pathname
      if (caIssuersServing === 'pkcs7')
        serve({
          path,
          body: certsOnlyPkcs7([root.certificateDer, authority.certificateDer]),
          contentType: 'application/pkcs7-mime',
        })
      else
        serve({
          path,
          body: caIssuersServing === 'der' ? authority.certificateDer : root.certificateDer,
          contentType: 'application/pkix-cert',
        })
    }
  }
  serve({
    path: new URL(url('root-self.crl')).pathname,
    body: root.crl({
      thisUpdate: new Date(now.getTime() - hour),
      nextUpdate: new Date(now.getTime() + 7 * day),
    }).crlDer,
    contentType: 'application/pkix-crl',
  })

  // Leaf first; the top `leftOut` intermediates are not sent.
  const path = [...roles].reverse().map(
    (role): CorpusPathCertificate => ({
      role,
      revoked: revoked.get(role) === true,
      distributionPoints: points.get(role) ?? [],
      caIssuers: caIssuers.get(role),
    }),
  )
  const chainDer = [...roles]
    .reverse()
    .slice(0, roles.length - leftOut)
    .map((role) => (issued.get(role) as IssuedCertificate).certificateDer)
  return { name, tags, chainDer, anchorDer: root.certificateDer, path }
}

/** The distribution points of one certificate: none, one, two, or `ldap:`/`file:` with or without `http:`. */
function pointPlan(random: SeededRandom, role: Role, tags: string[]): PointPlan {
  const layout = random.weighted([
    ['one', 60],
    ['two', 18],
    ['none', 5],
    ['ldap-only', 4],
    ['ldap-then-http', 6],
    ['file-then-http', 3],
    ['http-then-ldap', 4],
  ] as const)
  const http = () =>
    random.weighted<CrlServing>([
      ['current', 72],
      ['no-next-update', 4],
      ['not-found', 6],
      ['stale', 5],
      ['not-yet-valid', 3],
      ['bad-signature', 4],
      ['not-a-crl', 3],
      ['hangs', 1.5],
    ])
  const layouts: Record<typeof layout, () => PointPlan> = {
    one: () => [http()],
    two: () => [http(), http()],
    none: () => [],
    'ldap-only': () => ['ldap'],
    'ldap-then-http': () => ['ldap', http()],
    'file-then-http': () => ['file', http()],
    'http-then-ldap': () => [http(), 'ldap'],
  }
  const plan = layouts[layout]()
  if (layout !== 'one') tags.push(`${role}:points-${layout}`)
  for (const [position, serving] of plan.entries())
    if (serving !== 'current' && serving !== 'ldap' && serving !== 'file')
      tags.push(`${role}:point-${position}-${serving}`)
  return plan
}

/** The body a point serves, or `undefined` when it answers 404 (or never answers). */
function crlBody(
  authority: CertificateAuthority,
  serving: CrlServing | undefined,
  revokedSerials: readonly string[],
  now: Date,
): Uint8Array | undefined {
  const at = (hours: number) => new Date(now.getTime() + hours * hour)
  switch (serving) {
    case undefined:
    case 'not-found':
    case 'hangs':
      return undefined
    case 'not-a-crl':
      return new TextEncoder().encode('<html>not a CRL</html>')
    case 'current':
      return authority.crl({ thisUpdate: at(-1), nextUpdate: at(7 * 24), revokedSerials }).crlDer
    case 'no-next-update':
      return authority.crl({ thisUpdate: at(-1), revokedSerials }).crlDer
    case 'stale':
      return authority.crl({ thisUpdate: at(-8 * 24), nextUpdate: at(-1), revokedSerials }).crlDer
    case 'not-yet-valid':
      return authority.crl({ thisUpdate: at(24), nextUpdate: at(8 * 24), revokedSerials }).crlDer
    case 'bad-signature':
      return authority.crl({
        thisUpdate: at(-1),
        nextUpdate: at(7 * 24),
        revokedSerials,
        corruptSignature: true,
      }).crlDer
  }
}
