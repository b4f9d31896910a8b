import { X509Certificate } from 'node:crypto'
import { compactVerify, importX509 } from 'jose'
import * as pkijs from 'pkijs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type HostileDiscoveryVariant,
  hostileDiscoveryVariants,
  type PkiObject,
  startUdapSandbox,
  type UdapSandbox,
} from '../src/index.js'
import { decodeJws, discover, sanUrisOf } from './udap-test-client.js'

/**
 * An independent strict reader of UDAP metadata (IG STU2 §2.3), written for this test with
 * node:crypto and jose (pkijs to parse CRLs and the extensions of RFC 5280's path rules): it
 * names every rule the document breaks.
 */
async function brokenRules(
  document: Record<string, unknown>,
  fhirBaseUrl: string,
  anchorPem: string,
  crls: readonly PkiObject[],
): Promise<string[]> {
  const broken: string[] = []
  const jws = document.signed_metadata as string
  const { header, claims, x5c } = decodeJws(jws)
  const now = Date.now() / 1000
  const leaf = x5c.find((certificate) => !certificate.ca)
  const intermediates = x5c.filter((certificate) => certificate !== leaf)
  if (header.alg !== 'RS256') broken.push('alg')
  // The signature rule is checked against the end-entity certificate wherever it sits, so that
  // an out-of-order x5c breaks only the order rule.
  if (typeof header.alg === 'string' && /^RS/.test(header.alg) && leaf !== undefined) {
    try {
      await compactVerify(jws, await importX509(leaf.toString(), header.alg), {
        algorithms: [header.alg],
      })
    } catch {
      broken.push('signature')
    }
  }
  const [first, second] = x5c
  if (
    first === undefined ||
    first !== leaf ||
    (second !== undefined && first.issuer !== second.subject)
  )
    broken.push('x5c-order')

  const anchor = new X509Certificate(anchorPem)
  const path = leaf === undefined ? [] : buildPath(leaf, intermediates, anchor)
  if (path.length === 0) broken.push('chain')
  const nowMs = Date.now()
  if (
    x5c.some(
      (certificate) =>
        Date.parse(certificate.validFrom) > nowMs || Date.parse(certificate.validTo) < nowMs,
    )
  ) {
    broken.push('validity')
  }
  broken.push(...pathRuleBreaks(path))
  if (path.length > 0 && !(await revocationCurrentAndClear(path, crls))) broken.push('revocation')

  if (leaf === undefined || !sanUrisOf(leaf).includes(claims.iss as string)) broken.push('san')
  if (claims.iss !== fhirBaseUrl) broken.push('iss-base')
  if (claims.sub !== claims.iss) broken.push('sub')
  if (typeof claims.iat !== 'number' || claims.iat > now + 5) broken.push('iat')
  if (typeof claims.exp !== 'number' || claims.exp <= now) broken.push('exp-future')
  if (Number(claims.exp) - Number(claims.iat) > 366 * 86_400) broken.push('lifetime')
  if (typeof claims.jti !== 'string' || claims.jti === '') broken.push('jti')
  const endpoints = [document.token_endpoint, document.registration_endpoint]
  if (!endpoints.every(isHttpsOrLoopback)) broken.push('https-endpoints')
  if (
    claims.token_endpoint !== document.token_endpoint ||
    claims.registration_endpoint !== document.registration_endpoint ||
    claims.authorization_endpoint !== document.authorization_endpoint
  ) {
    broken.push('signed-endpoints')
  }
  return broken
}

/** Leaf, intermediates…, anchor — or [] when no signature-verified path reaches the anchor. */
function buildPath(
  leaf: X509Certificate,
  pool: X509Certificate[],
  anchor: X509Certificate,
): X509Certificate[] {
  const path = [leaf]
  for (let current = leaf; path.length <= pool.length + 1; ) {
    if (signedBy(current, anchor)) return [...path, anchor]
    const issuer = pool.find((candidate) => signedBy(current, candidate))
    if (issuer === undefined) return []
    path.push(issuer)
    current = issuer
  }
  return []
}

/**
 * Issued by name and signature only: `X509Certificate.checkIssued` also applies OpenSSL's
 * keyUsage rule, which must count as its own break here.
 */
function signedBy(certificate: X509Certificate, issuer: X509Certificate): boolean {
  return certificate.issuer === issuer.subject && certificate.verify(issuer.publicKey)
}

/** The rules of RFC 5280 §6.1 the path must also keep, read with pkijs: one name per kind. */
function pathRuleBreaks(path: readonly X509Certificate[]): string[] {
  const parsed = path.map((certificate) =>
    pkijs.Certificate.fromBER(new Uint8Array(certificate.raw)),
  )
  const extension = (certificate: pkijs.Certificate, oid: string) =>
    certificate.extensions?.find((entry) => entry.extnID === oid)
  const keyUsageBit = (certificate: pkijs.Certificate, bit: number): boolean | undefined => {
    const value = extension(certificate, '2.5.29.15')?.parsedValue as
      | { valueBlock: { valueHexView: Uint8Array } }
      | undefined
    if (value === undefined) return undefined
    return ((value.valueBlock.valueHexView[bit >> 3] ?? 0) & (0x80 >> (bit & 7))) !== 0
  }
  const broken = new Set<string>()
  const [leaf, ...issuers] = parsed
  if (leaf !== undefined && keyUsageBit(leaf, 0) === false) broken.add('key-usage')
  // keyCertSign (5) on every issuer, cRLSign (6) on every issuer that signs a CRL of the path.
  if (
    issuers.some((issuer) => keyUsageBit(issuer, 5) === false || keyUsageBit(issuer, 6) === false)
  )
    broken.add('key-usage')
  issuers.forEach((issuer, index) => {
    const constraints = extension(issuer, '2.5.29.19')?.parsedValue as
      | { pathLenConstraint?: number | { valueBlock: { valueDec: number } } }
      | undefined
    const limit = constraints?.pathLenConstraint
    const value = typeof limit === 'object' ? limit.valueBlock.valueDec : limit
    if (value !== undefined && index > value) broken.add('path-length')
    const nameConstraints = extension(issuer, '2.5.29.30')?.parsedValue as
      | { permittedSubtrees?: { base: { type: number; value: string } }[] }
      | undefined
    const permitted = (nameConstraints?.permittedSubtrees ?? []).filter(
      (subtree) => subtree.base.type === 6,
    )
    const hosts = sanUrisOf(path[0] as X509Certificate).map((uri) => new URL(uri).hostname)
    if (
      permitted.length > 0 &&
      hosts.some((host) => !permitted.some((subtree) => host.endsWith(subtree.base.value)))
    )
      broken.add('name-constraints')
  })
  const known = ['2.5.29.15', '2.5.29.17', '2.5.29.19', '2.5.29.30', '2.5.29.14', '2.5.29.35']
  if (
    parsed.some((certificate) =>
      certificate.extensions?.some((entry) => entry.critical && !known.includes(entry.extnID)),
    )
  )
    broken.add('critical-extension')
  return [...broken]
}

async function revocationCurrentAndClear(
  path: X509Certificate[],
  crls: readonly PkiObject[],
): Promise<boolean> {
  const parsed = crls.map((crl) => pkijs.CertificateRevocationList.fromBER(new Uint8Array(crl.der)))
  for (let index = 0; index + 1 < path.length; index += 1) {
    const certificate = pkijs.Certificate.fromBER(
      new Uint8Array((path[index] as X509Certificate).raw),
    )
    const issuer = pkijs.Certificate.fromBER(
      new Uint8Array((path[index + 1] as X509Certificate).raw),
    )
    let current = false
    for (const crl of parsed) {
      if (!crl.issuer.isEqual(issuer.subject)) continue
      if (!(await crl.verify({ issuerCertificate: issuer }).catch(() => false))) continue
      const nextUpdate = crl.nextUpdate?.value.getTime() ?? 0
      if (crl.thisUpdate.value.getTime() > Date.now() || nextUpdate <= Date.now()) continue
      if (crl.isCertificateRevoked(certificate)) return false
      current = true
    }
    if (!current) return false
  }
  return true
}

function isHttpsOrLoopback(value: unknown): boolean {
  if (typeof value !== 'string') return false
  const url = new URL(value)
  return url.protocol === 'https:' || (url.protocol === 'http:' && url.hostname === '127.0.0.1')
}

const expectedBreaks: Record<HostileDiscoveryVariant, string[]> = {
  'alg-none': ['alg'],
  'alg-hs256': ['alg'],
  'alg-rs384': ['alg'],
  'wrong-signing-key': ['signature'],
  'x5c-out-of-order': ['x5c-order'],
  'san-other-url': ['san'],
  'san-case-differs': ['san'],
  'san-trailing-slash': ['san'],
  'untrusted-root': ['chain'],
  'revoked-leaf': ['revocation'],
  'revoked-intermediate': ['revocation'],
  'expired-leaf': ['validity'],
  'not-yet-valid-leaf': ['validity'],
  'ca-without-key-cert-sign': ['key-usage'],
  'leaf-without-digital-signature': ['key-usage'],
  'crl-issuer-without-crl-sign': ['key-usage'],
  'path-length-exceeded': ['path-length'],
  'name-constraints-violated': ['name-constraints'],
  'unknown-critical-extension': ['critical-extension'],
  'exp-beyond-one-year': ['lifetime'],
  'exp-in-past': ['exp-future'],
  'missing-jti': ['jti'],
  'sub-differs': ['sub'],
  'iss-differs-from-base-url': ['iss-base'],
  'http-endpoints': ['https-endpoints'],
}

let sandbox: UdapSandbox

beforeAll(async () => {
  // With authorization_code, so that every variant (the unsigned authorization endpoint too)
  // has something to break.
  sandbox = await startUdapSandbox({ grantTypes: ['client_credentials', 'authorization_code'] })
})

afterAll(async () => {
  await sandbox.close()
})

async function fetchMetadata(
  variant: HostileDiscoveryVariant | undefined,
): Promise<Record<string, unknown>> {
  sandbox.setHostile(variant)
  const response = await discover(sandbox)
  expect(response.status).toBe(200)
  return (await response.json()) as Record<string, unknown>
}

async function breaksOf(
  document: Record<string, unknown>,
  crls = sandbox.trust.crls,
): Promise<string[]> {
  return brokenRules(document, sandbox.fhirBaseUrl, sandbox.trust.anchors[0]?.pem ?? '', crls)
}

describe('UDAP sandbox hostile discovery variants', () => {
  it('serves conformant metadata when no variant is set (the checker finds nothing)', async () => {
    expect(await breaksOf(await fetchMetadata(undefined))).toEqual([])
    expect(sandbox.hostile).toBeUndefined()
  })

  it('covers every variant in this table', () => {
    expect(Object.keys(expectedBreaks).sort()).toEqual([...hostileDiscoveryVariants].sort())
  })

  for (const variant of hostileDiscoveryVariants) {
    it(`${variant} breaks exactly: ${expectedBreaks[variant].join(', ')}`, async () => {
      const document = await fetchMetadata(variant)
      expect(sandbox.hostile).toBe(variant)
      expect(await breaksOf(document)).toEqual(expectedBreaks[variant])
    })
  }

  it('breaks each rule in the described way', async () => {
    const base = sandbox.fhirBaseUrl
    const decoded = async (variant: HostileDiscoveryVariant) => {
      const document = await fetchMetadata(variant)
      return {
        document,
        ...decodeJws(document.signed_metadata as string),
        jws: document.signed_metadata as string,
      }
    }
    const none = await decoded('alg-none')
    expect(none.header.alg).toBe('none')
    expect(none.jws.endsWith('.')).toBe(true)

    // HS256 keyed with the public key PEM of x5c[0]: what a naive verifier would feed it.
    const hs = await decoded('alg-hs256')
    const publicKeyPem =
      hs.x5c[0]?.publicKey.export({ format: 'pem', type: 'spki' }).toString() ?? ''
    await expect(
      compactVerify(hs.jws, new TextEncoder().encode(publicKeyPem)),
    ).resolves.toBeDefined()

    expect((await decoded('alg-rs384')).header.alg).toBe('RS384')
    expect((await decoded('x5c-out-of-order')).x5c[0]?.ca).toBe(true)
    expect(sanUrisOf((await decoded('san-other-url')).x5c[0] as X509Certificate)).toEqual([
      `${sandbox.origin}/other-fhir`,
    ])
    const caseSan = sanUrisOf((await decoded('san-case-differs')).x5c[0] as X509Certificate)
    expect(caseSan).toEqual([`${sandbox.origin}/FHIR`])
    expect(sanUrisOf((await decoded('san-trailing-slash')).x5c[0] as X509Certificate)).toEqual([
      `${base}/`,
    ])
    expect(Date.parse((await decoded('expired-leaf')).x5c[0]?.validTo ?? '')).toBeLessThan(
      Date.now(),
    )
    expect(
      Date.parse((await decoded('not-yet-valid-leaf')).x5c[0]?.validFrom ?? ''),
    ).toBeGreaterThan(Date.now())

    const far = await decoded('exp-beyond-one-year')
    expect(Number(far.claims.exp) - Number(far.claims.iat)).toBe(366 * 86_400 + 1)
    expect((await decoded('missing-jti')).claims).not.toHaveProperty('jti')
    const sub = await decoded('sub-differs')
    expect(sub.claims.iss).toBe(base)
    expect(sub.claims.sub).not.toBe(base)
    const iss = await decoded('iss-differs-from-base-url')
    expect(iss.claims.iss).toBe(`${sandbox.origin}/other-fhir`)
    expect(sanUrisOf(iss.x5c[0] as X509Certificate)).toEqual([iss.claims.iss])
    const http = await decoded('http-endpoints')
    expect(http.document.token_endpoint).toMatch(
      /^http:\/\/udap-sandbox\.example\.test:\d+\/token$/,
    )
    expect(http.claims.registration_endpoint).toBe(http.document.registration_endpoint)
  })

  it('unsigned-authorization-endpoint (a flow variant) changes only the unsigned authorization_endpoint', async () => {
    sandbox.setHostile('unsigned-authorization-endpoint')
    const response = await discover(sandbox)
    const document = (await response.json()) as Record<string, unknown>
    expect(await breaksOf(document)).toEqual(['signed-endpoints'])
    const unsigned = { document, ...decodeJws(document.signed_metadata as string) }
    expect(unsigned.claims.authorization_endpoint).toBe(sandbox.endpoints.authorization)
    expect(unsigned.document.authorization_endpoint).toBe(`${sandbox.origin}/unsigned-authorize`)
    sandbox.clearRequests()
    const misled = await fetch(unsigned.document.authorization_endpoint as string)
    expect(misled.status).toBe(400)
    expect(sandbox.requestCounts).toMatchObject({ authorization: 0, other: 1 })
  })

  it('refuses unsigned-authorization-endpoint on a server without authorization_code', async () => {
    const clientCredentialsOnly = await startUdapSandbox()
    try {
      expect(() => clientCredentialsOnly.setHostile('unsigned-authorization-endpoint')).toThrow(
        /authorization_code/,
      )
      expect(clientCredentialsOnly.hostile).toBeUndefined()
    } finally {
      await clientCredentialsOnly.close()
    }
  })

  it('only changes discovery: registration still works while a variant is active', async () => {
    sandbox.setHostile('alg-none')
    sandbox.clearRequests()
    await discover(sandbox)
    expect(sandbox.requestCounts).toMatchObject({ discovery: 1, registration: 0 })
    expect(() => sandbox.setHostile('bogus' as HostileDiscoveryVariant)).toThrow(/hostile/)
    expect(sandbox.hostile).toBe('alg-none')
  })

  it('can start with a variant', async () => {
    const hostile = await startUdapSandbox({ hostile: 'missing-jti' })
    try {
      const document = (await (await discover(hostile)).json()) as Record<string, unknown>
      expect(decodeJws(document.signed_metadata as string).claims).not.toHaveProperty('jti')
    } finally {
      await hostile.close()
    }
  })
})

describe('UDAP sandbox CRL variants', () => {
  it('stale, bad-signature and missing CRL sets each break only revocation', async () => {
    const document = await fetchMetadata(undefined)
    const { crlVariants } = sandbox.trust
    expect(await breaksOf(document, crlVariants.stale)).toEqual(['revocation'])
    expect(await breaksOf(document, crlVariants.badSignature)).toEqual(['revocation'])
    expect(await breaksOf(document, crlVariants.missing)).toEqual(['revocation'])
    expect(crlVariants.missing).toHaveLength(sandbox.trust.crls.length - 1)
    expect(await breaksOf(document, sandbox.trust.crls)).toEqual([])
  })

  it('the stale CRL is correctly signed but past its nextUpdate', async () => {
    const [root, intermediate] = sandbox.trust.crls.map((crl) =>
      pkijs.CertificateRevocationList.fromBER(new Uint8Array(crl.der)),
    )
    const stale = sandbox.trust.crlVariants.stale.map((crl) =>
      pkijs.CertificateRevocationList.fromBER(new Uint8Array(crl.der)),
    )
    expect(stale[0]?.toSchema().toBER()).toEqual(root?.toSchema().toBER())
    expect(stale[1]?.issuer.isEqual(intermediate?.issuer ?? stale[1].issuer)).toBe(true)
    expect(stale[1]?.nextUpdate?.value.getTime()).toBeLessThan(Date.now())
  })
})
