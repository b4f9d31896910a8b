/**
 * Regenerates the committed test PKI: `fixtures/**` (PEM, DER, PKCS#12, manifest.json) and
 * `src/fixtures.generated.ts` (the same material as strings, for runtimes without a file system).
 *
 * Run: `pnpm --filter @fhir-auth/test-pki generate`. Needs the `openssl` CLI (3.x) for PKCS#12.
 * Dates are fixed so the committed files stay valid until 2045; keys are new on every run, so
 * regenerate only when a case changes, and commit the whole output together.
 */
import { execFileSync } from 'node:child_process'
import { createPrivateKey } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { base64Encode, type CertificateChainFailureReason } from '@fhir-auth/core'
import { encodePem, parseCertificate } from '@fhir-auth/core/backend'
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
  type IssuedCrl,
  type KeyType,
} from '../src/issuer/index.js'

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..')
const fixturesDirectory = join(packageDirectory, 'fixtures')
const generatedModule = join(packageDirectory, 'src', 'fixtures.generated.ts')

const password = 'udap-test'
const clientUri = 'https://client.example.test/app'
const referenceTime = '2027-01-01T00:00:00Z'
const validFrom = new Date('2025-01-01T00:00:00Z')
const validUntil = new Date('2045-01-01T00:00:00Z')

type Expected = 'ok' | CertificateChainFailureReason

interface LeafCase {
  readonly name: string
  readonly description: string
  readonly expected: Expected
  readonly certificate: IssuedCertificate
  /** Leaf first, as a client would send it in `x5c`. */
  readonly chain: readonly Uint8Array[]
  /** The issuing path for PKCS#12 files: the real issuers, root included. */
  readonly issuers: readonly Uint8Array[]
  readonly trustAnchors: readonly string[]
  readonly crls: readonly string[]
  readonly sanUris: readonly string[]
}

async function main(): Promise<void> {
  const started = Date.now()
  const ca = (
    name: string,
    keyType: KeyType,
    issuer?: CertificateAuthority,
    isCertificateAuthority = true,
  ) =>
    createCertificateAuthority({
      name,
      keyType,
      notBefore: validFrom,
      notAfter: validUntil,
      ...(issuer === undefined ? {} : { issuer }),
      isCertificateAuthority,
    })
  const rsaRoot = await ca('fhir-auth Test RSA Root', 'rsa4096')
  const rsaIntermediate = await ca('fhir-auth Test RSA Intermediate', 'rsa3072', rsaRoot)
  const revokedIntermediate = await ca(
    'fhir-auth Test RSA Intermediate (revoked)',
    'rsa2048',
    rsaRoot,
  )
  const notCaIntermediate = await ca(
    'fhir-auth Test RSA Intermediate (not a CA)',
    'rsa2048',
    rsaRoot,
    false,
  )
  const ecRoot = await ca('fhir-auth Test EC Root', 'p384')
  const ecIntermediate = await ca('fhir-auth Test EC Intermediate', 'p384', ecRoot)
  const untrustedRoot = await ca('fhir-auth Test Untrusted Root', 'rsa2048')
  const authorities = {
    'rsa-root': rsaRoot,
    'rsa-intermediate': rsaIntermediate,
    'rsa-intermediate-revoked': revokedIntermediate,
    'rsa-intermediate-not-ca': notCaIntermediate,
    'ec-root': ecRoot,
    'ec-intermediate': ecIntermediate,
    'untrusted-root': untrustedRoot,
  }

  const issue = (
    authority: CertificateAuthority,
    commonName: string,
    keyType: KeyType,
    extra: Partial<Parameters<CertificateAuthority['issue']>[0]> = {},
  ) =>
    authority.issue({
      commonName,
      sanUris: [clientUri],
      keyType,
      notBefore: validFrom,
      notAfter: validUntil,
      ...extra,
    })

  const rsaClient = await issue(rsaIntermediate, 'fhir-auth test client (RSA)', 'rsa2048')
  const twoSans = [clientUri, 'https://client.example.test/app,second']
  const rsaTwoSans = await issue(rsaIntermediate, 'fhir-auth test client (two SANs)', 'rsa2048', {
    sanUris: twoSans,
  })
  const ecP256 = await issue(ecIntermediate, 'fhir-auth test client (P-256)', 'p256')
  const ecP384 = await issue(ecIntermediate, 'fhir-auth test client (P-384)', 'p384')
  const revoked = await issue(rsaIntermediate, 'fhir-auth test client (revoked)', 'rsa2048')
  const underRevoked = await issue(
    revokedIntermediate,
    'fhir-auth test client (under a revoked intermediate)',
    'rsa2048',
  )
  const expired = await issue(rsaIntermediate, 'fhir-auth test client (expired)', 'rsa2048', {
    notBefore: new Date('2020-01-01T00:00:00Z'),
    notAfter: new Date('2024-01-01T00:00:00Z'),
  })
  const notYetValid = await issue(
    rsaIntermediate,
    'fhir-auth test client (not yet valid)',
    'rsa2048',
    {
      notBefore: new Date('2040-01-01T00:00:00Z'),
      notAfter: new Date('2050-01-01T00:00:00Z'),
    },
  )
  const untrusted = await issue(
    untrustedRoot,
    'fhir-auth test client (untrusted community)',
    'rsa2048',
  )
  const staleCrl = await issue(rsaIntermediate, 'fhir-auth test client (stale CRL)', 'rsa2048')
  const badCrl = await issue(
    rsaIntermediate,
    'fhir-auth test client (CRL with a bad signature)',
    'rsa2048',
  )
  const missingIssuer = await issue(
    rsaIntermediate,
    'fhir-auth test client (issuer missing)',
    'p256',
  )
  const wrongOrder = await issue(
    rsaIntermediate,
    'fhir-auth test client (wrong chain order)',
    'p256',
  )
  const underNotCa = await issue(
    notCaIntermediate,
    'fhir-auth test client (issued by a non-CA)',
    'p256',
  )
  const badSignature = await issue(
    rsaIntermediate,
    'fhir-auth test client (bad signature)',
    'p256',
    { corruptSignature: true },
  )

  const crls: Record<string, IssuedCrl> = {
    'rsa-root': rsaRoot.crl({
      revokedSerials: [revokedIntermediate.serialNumber],
      thisUpdate: validFrom,
      nextUpdate: validUntil,
    }),
    'rsa-intermediate': rsaIntermediate.crl({
      revokedSerials: [revoked.serialNumber],
      thisUpdate: validFrom,
      nextUpdate: validUntil,
    }),
    'rsa-intermediate-stale': rsaIntermediate.crl({
      revokedSerials: [revoked.serialNumber],
      thisUpdate: validFrom,
      nextUpdate: new Date('2025-06-01T00:00:00Z'),
    }),
    'rsa-intermediate-bad-signature': rsaIntermediate.crl({
      revokedSerials: [revoked.serialNumber],
      thisUpdate: validFrom,
      nextUpdate: validUntil,
      corruptSignature: true,
    }),
    'rsa-intermediate-revoked': revokedIntermediate.crl({
      thisUpdate: validFrom,
      nextUpdate: validUntil,
    }),
    'rsa-intermediate-not-ca': notCaIntermediate.crl({
      thisUpdate: validFrom,
      nextUpdate: validUntil,
    }),
    'ec-root': ecRoot.crl({ thisUpdate: validFrom, nextUpdate: validUntil }),
    'ec-intermediate': ecIntermediate.crl({ thisUpdate: validFrom, nextUpdate: validUntil }),
    'untrusted-root': untrustedRoot.crl({ thisUpdate: validFrom, nextUpdate: validUntil }),
  }
  const currentCrls = [
    'rsa-root',
    'rsa-intermediate',
    'rsa-intermediate-revoked',
    'rsa-intermediate-not-ca',
    'ec-root',
    'ec-intermediate',
    'untrusted-root',
  ]
  const withIntermediateCrl = (replacement: string) =>
    currentCrls.map((name) => (name === 'rsa-intermediate' ? replacement : name))
  const trustAnchors = ['rsa-root', 'ec-root']

  const rsaPath = [rsaIntermediate.certificateDer, rsaRoot.certificateDer]
  const ecPath = [ecIntermediate.certificateDer, ecRoot.certificateDer]
  const leaf = (
    name: string,
    description: string,
    expected: Expected,
    certificate: IssuedCertificate,
    issuers: readonly Uint8Array[],
    overrides: Partial<Pick<LeafCase, 'chain' | 'crls' | 'sanUris'>> = {},
  ): LeafCase => ({
    name,
    description,
    expected,
    certificate,
    chain: overrides.chain ?? [certificate.certificateDer, ...issuers.slice(0, -1)],
    issuers,
    trustAnchors,
    crls: overrides.crls ?? currentCrls,
    sanUris: overrides.sanUris ?? [clientUri],
  })
  const cases: LeafCase[] = [
    leaf(
      'rsa-client',
      'RSA 2048 client under the RSA intermediate (RSA 3072) and root (RSA 4096)',
      'ok',
      rsaClient,
      rsaPath,
    ),
    leaf(
      'rsa-client-two-sans',
      'RSA 2048 client with two SAN URIs, the second containing a comma',
      'ok',
      rsaTwoSans,
      rsaPath,
      { sanUris: twoSans },
    ),
    leaf(
      'ec-p256-client',
      'EC P-256 client under the all-EC community (P-384 intermediate and root)',
      'ok',
      ecP256,
      ecPath,
    ),
    leaf('ec-p384-client', 'EC P-384 client under the all-EC community', 'ok', ecP384, ecPath),
    leaf('revoked', 'RSA client listed in the RSA intermediate CRL', 'revoked', revoked, rsaPath),
    leaf(
      'under-revoked-intermediate',
      'RSA client whose intermediate is listed in the root CRL',
      'revoked',
      underRevoked,
      [revokedIntermediate.certificateDer, rsaRoot.certificateDer],
    ),
    leaf('expired', 'RSA client valid 2020-01-01 to 2024-01-01', 'expired', expired, rsaPath),
    leaf(
      'not-yet-valid',
      'RSA client valid 2040-01-01 to 2050-01-01',
      'not-yet-valid',
      notYetValid,
      rsaPath,
    ),
    leaf(
      'untrusted',
      'RSA client (same SAN) from a community whose root is not a trust anchor; the chain ends at that root',
      'untrusted',
      untrusted,
      [untrustedRoot.certificateDer],
      {
        chain: [untrusted.certificateDer, untrustedRoot.certificateDer],
      },
    ),
    leaf(
      'stale-crl',
      'Valid RSA client, but the only RSA intermediate CRL supplied expired on 2025-06-01',
      'crl-stale',
      staleCrl,
      rsaPath,
      {
        crls: withIntermediateCrl('rsa-intermediate-stale'),
      },
    ),
    leaf(
      'crl-bad-signature',
      'Valid RSA client, but the only RSA intermediate CRL supplied has a flipped signature byte',
      'crl-bad-signature',
      badCrl,
      rsaPath,
      {
        crls: withIntermediateCrl('rsa-intermediate-bad-signature'),
      },
    ),
    leaf(
      'missing-issuer',
      'EC P-256 client sent without its intermediate',
      'no-path',
      missingIssuer,
      rsaPath,
      {
        chain: [missingIssuer.certificateDer],
      },
    ),
    leaf(
      'wrong-order',
      'EC P-256 client with the chain sent as leaf, root, intermediate',
      'order',
      wrongOrder,
      rsaPath,
      {
        chain: [wrongOrder.certificateDer, rsaRoot.certificateDer, rsaIntermediate.certificateDer],
      },
    ),
    leaf(
      'not-a-ca',
      'EC P-256 client issued by an intermediate without basicConstraints cA',
      'not-a-ca',
      underNotCa,
      [notCaIntermediate.certificateDer, rsaRoot.certificateDer],
    ),
    leaf(
      'bad-signature',
      'EC P-256 client whose certificate signature has a flipped byte',
      'bad-signature',
      badSignature,
      rsaPath,
    ),
  ]

  rmSync(fixturesDirectory, { recursive: true, force: true })
  const write = (path: string, content: string | Uint8Array) => {
    mkdirSync(dirname(join(fixturesDirectory, path)), { recursive: true })
    writeFileSync(join(fixturesDirectory, path), content)
  }
  const authorityData: Record<
    string,
    { pem: string; subject: string; serialNumber: string; keyType: KeyType }
  > = {}
  for (const [name, authority] of Object.entries(authorities)) {
    write(`authorities/${name}.pem`, authority.certificatePem)
    write(`authorities/${name}.der`, authority.certificateDer)
    authorityData[name] = {
      pem: authority.certificatePem,
      subject: parseCertificate(authority.certificateDer).subject,
      serialNumber: authority.serialNumber,
      keyType: authority.keyType,
    }
  }
  const crlData: Record<string, string> = {}
  for (const [name, crl] of Object.entries(crls)) {
    write(`crls/${name}.crl.pem`, crl.crlPem)
    write(`crls/${name}.crl`, crl.crlDer)
    crlData[name] = crl.crlPem
  }
  const workDirectory = mkdtempSync(join(tmpdir(), 'fhir-auth-test-pki-'))
  const leafData: Record<string, unknown> = {}
  const manifestCases: unknown[] = []
  try {
    for (const entry of cases) {
      const { certificate } = entry
      const parsed = parseCertificate(certificate.certificateDer)
      const keyType = certificate.keyPair.keyType
      const traditionalType = keyType.startsWith('rsa') ? 'pkcs1' : 'sec1'
      const traditionalPem = createPrivateKey(certificate.privateKeyPem)
        .export({ format: 'pem', type: traditionalType })
        .toString()
      const chainPem = entry.chain.map((der) => encodePem(der, 'CERTIFICATE')).join('')
      const directory = `leaves/${entry.name}`
      write(`${directory}/certificate.pem`, certificate.certificatePem)
      write(`${directory}/certificate.der`, certificate.certificateDer)
      write(`${directory}/key.pkcs8.pem`, certificate.privateKeyPem)
      write(`${directory}/key.${traditionalType}.pem`, traditionalPem)
      write(`${directory}/chain.pem`, chainPem)
      write(
        `${directory}/x5c.json`,
        `${JSON.stringify(entry.chain.map((der) => base64Encode(der)))}\n`,
      )
      const pkcs12 = makePkcs12(workDirectory, entry, false)
      const pkcs12Legacy = makePkcs12(workDirectory, entry, true)
      write(`${directory}/bundle.p12`, pkcs12)
      write(`${directory}/bundle.legacy.p12`, pkcs12Legacy)
      const summary = {
        description: entry.description,
        expected: entry.expected,
        keyType,
        subject: parsed.subject,
        serialNumber: parsed.serialNumber,
        notBefore: parsed.notBefore.toISOString(),
        notAfter: parsed.notAfter.toISOString(),
        sanUris: entry.sanUris,
        trustAnchors: entry.trustAnchors,
        crls: entry.crls,
      }
      manifestCases.push({
        name: entry.name,
        ...summary,
        files: {
          certificate: `${directory}/certificate.pem`,
          privateKeyPkcs8: `${directory}/key.pkcs8.pem`,
          privateKeyTraditional: `${directory}/key.${traditionalType}.pem`,
          chain: `${directory}/chain.pem`,
          x5c: `${directory}/x5c.json`,
          pkcs12: `${directory}/bundle.p12`,
          pkcs12Legacy: `${directory}/bundle.legacy.p12`,
        },
      })
      leafData[entry.name] = {
        ...summary,
        certificatePem: certificate.certificatePem,
        privateKeyPkcs8Pem: certificate.privateKeyPem,
        privateKeyTraditionalPem: traditionalPem,
        chainPem,
        pkcs12Base64: base64Encode(pkcs12),
        pkcs12LegacyBase64: base64Encode(pkcs12Legacy),
      }
    }
  } finally {
    rmSync(workDirectory, { recursive: true, force: true })
  }
  // One encrypted PKCS#8 key, to check that backends refuse encrypted PEM with a typed error.
  const encryptedKeyLeaf = 'ec-p256-client'
  const encryptedPrivateKeyPem = createPrivateKey(ecP256.privateKeyPem)
    .export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: password })
    .toString()
  write(`leaves/${encryptedKeyLeaf}/key.pkcs8.encrypted.pem`, encryptedPrivateKeyPem)
  const manifest = {
    description:
      'fhir-auth test PKI. Regenerate with `pnpm --filter @fhir-auth/test-pki generate`.',
    referenceTime,
    pkcs12Password: password,
    trustAnchors,
    currentCrls,
    authorities: Object.fromEntries(
      Object.entries(authorityData).map(([name, data]) => [
        name,
        {
          subject: data.subject,
          serialNumber: data.serialNumber,
          keyType: data.keyType,
          file: `authorities/${name}.pem`,
        },
      ]),
    ),
    crls: Object.fromEntries(Object.keys(crls).map((name) => [name, `crls/${name}.crl.pem`])),
    encryptedPrivateKey: {
      leaf: encryptedKeyLeaf,
      file: `leaves/${encryptedKeyLeaf}/key.pkcs8.encrypted.pem`,
      passphrase: password,
    },
    cases: manifestCases,
  }
  write('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`)
  writeFileSync(
    generatedModule,
    [
      '// Generated by scripts/generate.ts from the same run as fixtures/. Do not edit.',
      '// PEM strings and base64 PKCS#12, so the fixtures load without a file system (browsers).',
      '',
      `export const generatedAt = ${JSON.stringify(new Date().toISOString())}`,
      `export const referenceTime = ${JSON.stringify(referenceTime)}`,
      `export const pkcs12Password = ${JSON.stringify(password)}`,
      `export const trustAnchorNames = ${JSON.stringify(trustAnchors)} as const`,
      `export const currentCrlNames = ${JSON.stringify(currentCrls)} as const`,
      `export const authorities = ${JSON.stringify(authorityData)} as const`,
      `export const crls = ${JSON.stringify(crlData)} as const`,
      `export const leaves = ${JSON.stringify(leafData)} as const`,
      `export const encryptedPrivateKey = ${JSON.stringify({ leaf: encryptedKeyLeaf, pem: encryptedPrivateKeyPem, passphrase: password })} as const`,
      '',
    ].join('\n'),
  )
  execFileSync(
    join(packageDirectory, '..', '..', 'node_modules', '.bin', 'biome'),
    ['format', '--write', generatedModule, fixturesDirectory],
    { stdio: 'inherit' },
  )
  console.log(
    `test PKI written to ${fixturesDirectory} (${cases.length} leaves) in ${Date.now() - started} ms`,
  )
}

/** Builds a PKCS#12 with the openssl CLI: modern PBES2/AES-256 + SHA-256 MAC, or legacy 3DES + SHA-1 MAC. */
function makePkcs12(workDirectory: string, entry: LeafCase, legacy: boolean): Uint8Array {
  const keyFile = join(workDirectory, `${entry.name}.key`)
  const certificateFile = join(workDirectory, `${entry.name}.pem`)
  const issuersFile = join(workDirectory, `${entry.name}.issuers.pem`)
  const output = join(workDirectory, `${entry.name}${legacy ? '.legacy' : ''}.p12`)
  writeFileSync(keyFile, entry.certificate.privateKeyPem)
  writeFileSync(certificateFile, entry.certificate.certificatePem)
  writeFileSync(issuersFile, entry.issuers.map((der) => encodePem(der, 'CERTIFICATE')).join(''))
  const encryption = legacy
    ? ['-keypbe', 'PBE-SHA1-3DES', '-certpbe', 'PBE-SHA1-3DES', '-macalg', 'sha1']
    : ['-keypbe', 'AES-256-CBC', '-certpbe', 'AES-256-CBC', '-macalg', 'sha256']
  execFileSync('openssl', [
    'pkcs12',
    '-export',
    '-inkey',
    keyFile,
    '-in',
    certificateFile,
    '-certfile',
    issuersFile,
    '-name',
    entry.name,
    '-passout',
    `pass:${password}`,
    ...encryption,
    '-out',
    output,
  ])
  return new Uint8Array(readFileSync(output))
}

await main()
