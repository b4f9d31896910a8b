/**
 * Test-only: the committed test PKI (`internal/test-pki`), addressed by the paths of its
 * `fixtures/` folder but served from `src/fixtures.generated.ts`, the same material as strings.
 * That file is plain data with no imports, so the x509 tests load it in Node, in the edge runtime
 * and in Chromium alike, without a file system. It is imported by relative path because core
 * must not depend on `@fhir-auth/test-pki` (which depends on core).
 */
import {
  authorities,
  crls,
  currentCrlNames,
  encryptedPrivateKey,
  leaves,
  referenceTime,
  trustAnchorNames,
} from '../../../../../internal/test-pki/src/fixtures.generated.js'
import { pemBytes } from './webcrypto-keys.js'

/** One leaf case, shaped like an entry of `manifest.json`. */
export interface ManifestCase {
  readonly name: string
  readonly description: string
  readonly expected: string
  readonly keyType: string
  readonly subject: string
  readonly serialNumber: string
  readonly notBefore: string
  readonly notAfter: string
  readonly sanUris: readonly string[]
  readonly trustAnchors: readonly string[]
  readonly crls: readonly string[]
  readonly files: Readonly<
    Record<'certificate' | 'privateKeyPkcs8' | 'privateKeyTraditional' | 'chain', string>
  >
}

/** The parts of `manifest.json` the core tests use. */
export interface Manifest {
  readonly referenceTime: string
  readonly trustAnchors: readonly string[]
  readonly currentCrls: readonly string[]
  readonly authorities: Readonly<
    Record<
      string,
      { readonly subject: string; readonly serialNumber: string; readonly file: string }
    >
  >
  readonly crls: Readonly<Record<string, string>>
  readonly cases: readonly ManifestCase[]
}

/** Access to the fixture files by their path under `internal/test-pki/fixtures/`. */
export interface TestPkiFiles {
  readonly manifest: Manifest
  /** A PEM file (`….pem`); throws for a path the fixtures do not have. */
  text(path: string): string
  /** A DER file (`….der`, `crls/….crl`): the bytes of the PEM file of the same name. */
  bytes(path: string): Uint8Array
  /** The manifest case with that name; throws for an unknown name. */
  manifestCase(name: string): ManifestCase
}

function buildFiles(): ReadonlyMap<string, string> {
  const files = new Map<string, string>()
  for (const [name, authority] of Object.entries(authorities))
    files.set(`authorities/${name}.pem`, authority.pem)
  for (const [name, pem] of Object.entries(crls)) files.set(`crls/${name}.crl.pem`, pem)
  for (const [name, leaf] of Object.entries(leaves)) {
    const traditional = leaf.keyType.startsWith('rsa') ? 'key.pkcs1.pem' : 'key.sec1.pem'
    files.set(`leaves/${name}/certificate.pem`, leaf.certificatePem)
    files.set(`leaves/${name}/key.pkcs8.pem`, leaf.privateKeyPkcs8Pem)
    files.set(`leaves/${name}/${traditional}`, leaf.privateKeyTraditionalPem)
    files.set(`leaves/${name}/chain.pem`, leaf.chainPem)
  }
  files.set(`leaves/${encryptedPrivateKey.leaf}/key.pkcs8.encrypted.pem`, encryptedPrivateKey.pem)
  return files
}

function buildManifest(): Manifest {
  return {
    referenceTime,
    trustAnchors: trustAnchorNames,
    currentCrls: currentCrlNames,
    authorities: Object.fromEntries(
      Object.entries(authorities).map(([name, authority]) => [
        name,
        {
          subject: authority.subject,
          serialNumber: authority.serialNumber,
          file: `authorities/${name}.pem`,
        },
      ]),
    ),
    crls: Object.fromEntries(Object.keys(crls).map((name) => [name, `crls/${name}.crl.pem`])),
    cases: Object.entries(leaves).map(([name, leaf]) => ({
      name,
      description: leaf.description,
      expected: leaf.expected,
      keyType: leaf.keyType,
      subject: leaf.subject,
      serialNumber: leaf.serialNumber,
      notBefore: leaf.notBefore,
      notAfter: leaf.notAfter,
      sanUris: leaf.sanUris,
      trustAnchors: leaf.trustAnchors,
      crls: leaf.crls,
      files: {
        certificate: `leaves/${name}/certificate.pem`,
        privateKeyPkcs8: `leaves/${name}/key.pkcs8.pem`,
        privateKeyTraditional: `leaves/${name}/${leaf.keyType.startsWith('rsa') ? 'key.pkcs1.pem' : 'key.sec1.pem'}`,
        chain: `leaves/${name}/chain.pem`,
      },
    })),
  }
}

/** Opens the committed test PKI. */
export function openTestPkiFiles(): TestPkiFiles {
  const files = buildFiles()
  const manifest = buildManifest()
  const text = (path: string): string => {
    const found = files.get(path)
    if (found === undefined) throw new Error(`the test PKI has no file ${path}`)
    return found
  }
  return {
    manifest,
    text,
    bytes: (path) => pemBytes(text(path.replace(/\.der$/, '.pem').replace(/\.crl$/, '.crl.pem'))),
    manifestCase: (name) => {
      const found = manifest.cases.find((entry) => entry.name === name)
      if (found === undefined) throw new Error(`no test PKI case ${name}`)
      return found
    },
  }
}
