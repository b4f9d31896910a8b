/**
 * Regenerates the path-rule fixtures of the test PKI: `fixtures/path-rules/**` and
 * `src/path-rules.generated.ts`, one broken and one satisfied case for every rule of DESIGN §11
 * (key usage, path length, name constraints, unknown critical extensions, CRL scope).
 *
 * Run: `pnpm --filter @fhir-auth/test-pki generate:path-rules`. No openssl needed. Dates are
 * fixed (valid 2025-01-01 → 2045-01-01, judged at 2027-01-01); keys are new on every run, so
 * regenerate only when a case changes and commit the output together. The main fixtures
 * (`scripts/generate.ts`) are independent of these.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CertificateChainFailureReason } from '@fhir-auth/core'
import { encodePem, parseCertificate } from '@fhir-auth/core/internal'
import {
  type CertificateAuthority,
  type CertificateAuthorityOptions,
  createCertificateAuthority,
  type IssueCertificateOptions,
  type IssuedCertificate,
  type IssuedCrl,
  unknownCriticalExtension,
} from '../src/issuer/index.js'

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..')
const fixturesDirectory = join(packageDirectory, 'fixtures', 'path-rules')
const generatedModule = join(packageDirectory, 'src', 'path-rules.generated.ts')

const clientUri = 'https://client.example.test/app'
const validFrom = new Date('2025-01-01T00:00:00Z')
const validUntil = new Date('2045-01-01T00:00:00Z')
const crlDistributionPoint = 'http://crl.example.test/path-rules-intermediate.crl'

type Expected = 'ok' | CertificateChainFailureReason

interface PathRuleCase {
  readonly name: string
  readonly description: string
  /** Full path validation with the anchors and CRLs below. */
  readonly expected: Expected
  /** The client's own check before signing (no trust, no revocation). */
  readonly expectedOwnChain: Expected
  /** The certificate the failure is about, by authority name or `leaf`. */
  readonly failingCertificate?: string
  readonly leaf: IssuedCertificate
  /** Leaf first, as sent in `x5c` (never the root). */
  readonly chain: readonly Uint8Array[]
  readonly trustAnchors: readonly string[]
  readonly crls: readonly string[]
  readonly sanUris: readonly string[]
}

async function main(): Promise<void> {
  const started = Date.now()
  const window = { notBefore: validFrom, notAfter: validUntil }
  const ca = (name: string, options: Partial<CertificateAuthorityOptions> = {}) =>
    createCertificateAuthority({ name, keyType: 'p384', ...window, ...options })
  const root = await ca('fhir-auth Path Rules Root')
  const rootPathLengthZero = await ca('fhir-auth Path Rules Root (pathLenConstraint 0)', {
    pathLengthConstraint: 0,
  })
  const intermediate = (name: string, options: Partial<CertificateAuthorityOptions> = {}) =>
    ca(`fhir-auth Path Rules Intermediate (${name})`, { issuer: root, ...options })
  const authorities: Record<string, CertificateAuthority> = {
    root,
    'root-path-length-0': rootPathLengthZero,
    intermediate: await intermediate('plain'),
    'intermediate-key-usage-minimal': await intermediate('keyCertSign and cRLSign only', {
      keyUsage: ['keyCertSign', 'cRLSign'],
    }),
    'intermediate-without-key-usage': await intermediate('no keyUsage', { keyUsage: null }),
    'intermediate-without-key-cert-sign': await intermediate('no keyCertSign', {
      keyUsage: ['digitalSignature', 'cRLSign'],
    }),
    'intermediate-without-crl-sign': await intermediate('no cRLSign', {
      keyUsage: ['digitalSignature', 'keyCertSign'],
    }),
    'intermediate-path-length-0': await intermediate('pathLenConstraint 0', {
      pathLengthConstraint: 0,
    }),
    'intermediate-path-length-1': await intermediate('pathLenConstraint 1', {
      pathLengthConstraint: 1,
    }),
    'intermediate-unknown-critical': await intermediate('unknown critical extension', {
      extraExtensions: [unknownCriticalExtension()],
    }),
    'intermediate-permitted-names': await intermediate('permitted .example.test', {
      nameConstraints: {
        permitted: {
          uris: ['.example.test'],
          dnsNames: ['example.test'],
          emails: ['.example.test', 'example.test'],
        },
      },
    }),
    'intermediate-excluded-names': await intermediate('excluded client.example.test', {
      nameConstraints: {
        excluded: {
          uris: ['client.example.test'],
          dnsNames: ['client.example.test'],
          emails: ['ops@example.test'],
        },
      },
    }),
  }
  const authority = (name: string): CertificateAuthority => {
    const found = authorities[name]
    if (found === undefined) throw new Error(`no path-rules authority ${name}`)
    return found
  }
  authorities['intermediate-under-zero-root'] = await ca(
    'fhir-auth Path Rules Intermediate (under the pathLenConstraint 0 root)',
    { issuer: rootPathLengthZero },
  )
  // A CA below the pathLenConstraint 0 intermediate, and one below the pathLenConstraint 1 one.
  authorities['sub-ca-under-path-length-0'] = await ca(
    'fhir-auth Path Rules Sub-CA (below pathLenConstraint 0)',
    { issuer: authority('intermediate-path-length-0') },
  )
  authorities['sub-ca-under-path-length-1'] = await ca(
    'fhir-auth Path Rules Sub-CA (below pathLenConstraint 1)',
    { issuer: authority('intermediate-path-length-1') },
  )

  const crls: Record<string, IssuedCrl> = {}
  for (const [name, issuer] of Object.entries(authorities))
    crls[name] = issuer.crl({ thisUpdate: validFrom, nextUpdate: validUntil })
  crls['intermediate-unknown-critical-crl'] = authority('intermediate').crl({
    thisUpdate: validFrom,
    nextUpdate: validUntil,
    extraExtensions: [unknownCriticalExtension()],
  })
  crls['intermediate-only-ca-certificates'] = authority('intermediate').crl({
    thisUpdate: validFrom,
    nextUpdate: validUntil,
    issuingDistributionPoint: { onlyContainsCACerts: true },
  })
  crls['intermediate-distribution-point'] = authority('intermediate').crl({
    thisUpdate: validFrom,
    nextUpdate: validUntil,
    issuingDistributionPoint: { uris: [crlDistributionPoint], onlyContainsUserCerts: true },
  })
  const currentCrls = Object.keys(authorities)
  const withIntermediateCrl = (replacement: string) =>
    currentCrls.map((name) => (name === 'intermediate' ? replacement : name))

  const issue = (
    issuerName: string,
    label: string,
    options: Partial<IssueCertificateOptions> = {},
  ): Promise<IssuedCertificate> =>
    authority(issuerName).issue({
      commonName: `fhir-auth path rules client (${label})`,
      sanUris: [clientUri],
      keyType: 'p256',
      ...window,
      ...options,
    })
  const cases: PathRuleCase[] = []
  const add = async (
    entry: Omit<PathRuleCase, 'leaf' | 'chain' | 'trustAnchors' | 'crls' | 'sanUris'> & {
      readonly issuer: string
      readonly leafOptions?: Partial<IssueCertificateOptions>
      readonly crls?: readonly string[]
    },
  ) => {
    const { issuer, leafOptions, crls: caseCrls, ...rest } = entry
    const leaf = await issue(issuer, entry.name, leafOptions)
    cases.push({
      ...rest,
      leaf,
      chain: leaf.chainDer,
      trustAnchors: ['root', 'root-path-length-0'],
      crls: caseCrls ?? currentCrls,
      sanUris: leafOptions?.sanUris ?? [clientUri],
    })
  }

  await add({
    name: 'key-usage-satisfied',
    description:
      'Intermediate with keyUsage keyCertSign + cRLSign only; leaf with digitalSignature + keyEncipherment',
    expected: 'ok',
    expectedOwnChain: 'ok',
    issuer: 'intermediate-key-usage-minimal',
    leafOptions: { keyUsage: ['digitalSignature', 'keyEncipherment'] },
  })
  await add({
    name: 'key-usage-absent',
    description: 'Neither the intermediate nor the leaf has a keyUsage extension (no restriction)',
    expected: 'ok',
    expectedOwnChain: 'ok',
    issuer: 'intermediate-without-key-usage',
    leafOptions: { keyUsage: null },
  })
  await add({
    name: 'ca-without-key-cert-sign',
    description: 'Issued by an intermediate whose keyUsage lacks keyCertSign',
    expected: 'key-usage',
    expectedOwnChain: 'key-usage',
    failingCertificate: 'intermediate-without-key-cert-sign',
    issuer: 'intermediate-without-key-cert-sign',
  })
  await add({
    name: 'leaf-without-digital-signature',
    description: 'Leaf whose keyUsage is keyEncipherment only (it cannot sign a JWT)',
    expected: 'key-usage',
    expectedOwnChain: 'key-usage',
    failingCertificate: 'leaf',
    issuer: 'intermediate',
    leafOptions: { keyUsage: ['keyEncipherment'] },
  })
  await add({
    name: 'crl-issuer-without-crl-sign',
    description: "The intermediate's keyUsage lacks cRLSign, so its CRL cannot vouch for the leaf",
    expected: 'key-usage',
    expectedOwnChain: 'ok',
    failingCertificate: 'intermediate-without-crl-sign',
    issuer: 'intermediate-without-crl-sign',
  })
  await add({
    name: 'path-length-satisfied',
    description:
      'Leaf below a sub-CA below an intermediate with pathLenConstraint 1 (one CA below it)',
    expected: 'ok',
    expectedOwnChain: 'ok',
    issuer: 'sub-ca-under-path-length-1',
  })
  await add({
    name: 'path-length-exceeded',
    description: 'Leaf below a sub-CA below an intermediate with pathLenConstraint 0',
    expected: 'path-length',
    expectedOwnChain: 'path-length',
    failingCertificate: 'intermediate-path-length-0',
    issuer: 'sub-ca-under-path-length-0',
  })
  await add({
    name: 'path-length-zero-satisfied',
    description: 'Leaf directly below an intermediate with pathLenConstraint 0',
    expected: 'ok',
    expectedOwnChain: 'ok',
    issuer: 'intermediate-path-length-0',
  })
  await add({
    name: 'anchor-path-length-exceeded',
    description:
      "The anchor's own pathLenConstraint 0 forbids the intermediate below it (the anchor narrows the path)",
    expected: 'path-length',
    expectedOwnChain: 'ok',
    failingCertificate: 'root-path-length-0',
    issuer: 'intermediate-under-zero-root',
  })
  await add({
    name: 'name-constraints-satisfied',
    description:
      'URI, DNS and email SANs inside the permitted subtrees .example.test / example.test',
    expected: 'ok',
    expectedOwnChain: 'ok',
    issuer: 'intermediate-permitted-names',
    leafOptions: {
      sanDnsNames: ['client.example.test'],
      sanEmails: ['ops@example.test'],
    },
  })
  await add({
    name: 'name-constraints-uri',
    description: 'SAN URI https://client.other.test/app outside the permitted .example.test',
    expected: 'name-constraints',
    expectedOwnChain: 'name-constraints',
    failingCertificate: 'leaf',
    issuer: 'intermediate-permitted-names',
    leafOptions: { sanUris: ['https://client.other.test/app'] },
  })
  await add({
    name: 'name-constraints-dns',
    description: 'SAN dNSName client.other.test outside the permitted example.test',
    expected: 'name-constraints',
    expectedOwnChain: 'name-constraints',
    failingCertificate: 'leaf',
    issuer: 'intermediate-permitted-names',
    leafOptions: { sanDnsNames: ['client.other.test'] },
  })
  await add({
    name: 'name-constraints-email',
    description: 'SAN rfc822Name ops@other.test outside the permitted .example.test',
    expected: 'name-constraints',
    expectedOwnChain: 'name-constraints',
    failingCertificate: 'leaf',
    issuer: 'intermediate-permitted-names',
    leafOptions: { sanEmails: ['ops@other.test'] },
  })
  await add({
    name: 'name-constraints-excluded-satisfied',
    description:
      'Names outside the excluded subtrees client.example.test / ops@example.test are accepted',
    expected: 'ok',
    expectedOwnChain: 'ok',
    issuer: 'intermediate-excluded-names',
    leafOptions: {
      sanUris: ['https://app.example.test/client'],
      sanDnsNames: ['app.example.test'],
      sanEmails: ['dev@example.test'],
    },
  })
  await add({
    name: 'name-constraints-excluded-uri',
    description: 'SAN URI host client.example.test inside the excluded subtree',
    expected: 'name-constraints',
    expectedOwnChain: 'name-constraints',
    failingCertificate: 'leaf',
    issuer: 'intermediate-excluded-names',
  })
  await add({
    name: 'name-constraints-excluded-email',
    description: 'SAN rfc822Name ops@example.test equal to an excluded mailbox',
    expected: 'name-constraints',
    expectedOwnChain: 'name-constraints',
    failingCertificate: 'leaf',
    issuer: 'intermediate-excluded-names',
    leafOptions: { sanUris: ['https://app.example.test/client'], sanEmails: ['ops@example.test'] },
  })
  await add({
    name: 'leaf-unknown-critical-extension',
    description: 'Leaf with a critical private extension (2.25.…) nobody understands',
    expected: 'unknown-critical-extension',
    expectedOwnChain: 'unknown-critical-extension',
    failingCertificate: 'leaf',
    issuer: 'intermediate',
    leafOptions: { extraExtensions: [unknownCriticalExtension()] },
  })
  await add({
    name: 'ca-unknown-critical-extension',
    description: 'Issued by an intermediate with a critical private extension',
    expected: 'unknown-critical-extension',
    expectedOwnChain: 'unknown-critical-extension',
    failingCertificate: 'intermediate-unknown-critical',
    issuer: 'intermediate-unknown-critical',
  })
  await add({
    name: 'known-critical-extension',
    description: 'Leaf with the same private extension marked not critical (ignored)',
    expected: 'ok',
    expectedOwnChain: 'ok',
    issuer: 'intermediate',
    leafOptions: { extraExtensions: [{ ...unknownCriticalExtension(), critical: false }] },
  })
  await add({
    name: 'crl-unknown-critical-extension',
    description: "The intermediate's only CRL has a critical private extension",
    expected: 'unknown-critical-extension',
    expectedOwnChain: 'ok',
    failingCertificate: 'leaf',
    issuer: 'intermediate',
    crls: withIntermediateCrl('intermediate-unknown-critical-crl'),
  })
  await add({
    name: 'crl-scope-excludes-leaf',
    description:
      "The intermediate's only CRL covers CA certificates only (issuingDistributionPoint onlyContainsCACerts)",
    expected: 'crl-missing',
    expectedOwnChain: 'ok',
    failingCertificate: 'leaf',
    issuer: 'intermediate',
    crls: withIntermediateCrl('intermediate-only-ca-certificates'),
  })
  await add({
    name: 'crl-scope-distribution-point',
    description:
      "The intermediate's only CRL names the distribution point the leaf's cRLDistributionPoints names",
    expected: 'ok',
    expectedOwnChain: 'ok',
    issuer: 'intermediate',
    leafOptions: { crlDistributionPoints: [crlDistributionPoint] },
    crls: withIntermediateCrl('intermediate-distribution-point'),
  })
  await add({
    name: 'crl-scope-other-distribution-point',
    description:
      "The intermediate's only CRL is for a distribution point the leaf does not name (it names none)",
    expected: 'crl-missing',
    expectedOwnChain: 'ok',
    failingCertificate: 'leaf',
    issuer: 'intermediate',
    crls: withIntermediateCrl('intermediate-distribution-point'),
  })

  rmSync(fixturesDirectory, { recursive: true, force: true })
  const write = (path: string, content: string | Uint8Array) => {
    mkdirSync(dirname(join(fixturesDirectory, path)), { recursive: true })
    writeFileSync(join(fixturesDirectory, path), content)
  }
  const authorityData: Record<string, { pem: string; subject: string }> = {}
  for (const [name, issuer] of Object.entries(authorities)) {
    write(`authorities/${name}.pem`, issuer.certificatePem)
    authorityData[name] = {
      pem: issuer.certificatePem,
      subject: parseCertificate(issuer.certificateDer).subject,
    }
  }
  const crlData: Record<string, string> = {}
  for (const [name, crl] of Object.entries(crls)) {
    write(`crls/${name}.crl.pem`, crl.crlPem)
    crlData[name] = crl.crlPem
  }
  const caseData: Record<string, unknown> = {}
  for (const entry of cases) {
    const chainPem = entry.chain.map((der) => encodePem(der, 'CERTIFICATE')).join('')
    write(`cases/${entry.name}/chain.pem`, chainPem)
    write(`cases/${entry.name}/key.pkcs8.pem`, entry.leaf.privateKeyPem)
    const subject = parseCertificate(entry.leaf.certificateDer).subject
    caseData[entry.name] = {
      description: entry.description,
      expected: entry.expected,
      expectedOwnChain: entry.expectedOwnChain,
      failingSubject:
        entry.failingCertificate === undefined
          ? undefined
          : entry.failingCertificate === 'leaf'
            ? subject
            : authorityData[entry.failingCertificate]?.subject,
      subject,
      sanUris: entry.sanUris,
      trustAnchors: entry.trustAnchors,
      crls: entry.crls,
      chainPem,
      privateKeyPkcs8Pem: entry.leaf.privateKeyPem,
    }
  }
  write(
    'manifest.json',
    `${JSON.stringify(
      {
        description:
          'fhir-auth path-rule fixtures (DESIGN §11). Regenerate with `pnpm --filter @fhir-auth/test-pki generate:path-rules`.',
        referenceTime: '2027-01-01T00:00:00Z',
        authorities: Object.fromEntries(
          Object.entries(authorityData).map(([name, data]) => [name, data.subject]),
        ),
        crls: Object.keys(crlData),
        cases: Object.fromEntries(
          Object.entries(caseData).map(([name, data]) => {
            const {
              chainPem: _chain,
              privateKeyPkcs8Pem: _key,
              ...summary
            } = data as Record<string, unknown>
            return [name, summary]
          }),
        ),
      },
      null,
      2,
    )}\n`,
  )
  writeFileSync(
    generatedModule,
    [
      '// Generated by scripts/generate-path-rules.ts from the same run as fixtures/path-rules/. Do not edit.',
      '',
      `export const pathRuleAuthorities = ${JSON.stringify(authorityData)} as const`,
      `export const pathRuleCrls = ${JSON.stringify(crlData)} as const`,
      `export const pathRuleCases = ${JSON.stringify(caseData)} as const`,
      '',
    ].join('\n'),
  )
  execFileSync(
    join(packageDirectory, '..', '..', 'node_modules', '.bin', 'biome'),
    ['format', '--write', generatedModule, fixturesDirectory],
    { stdio: 'inherit' },
  )
  console.log(
    `path-rule fixtures written to ${fixturesDirectory} (${cases.length} cases) in ${Date.now() - started} ms`,
  )
}

await main()
