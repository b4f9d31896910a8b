/**
 * Test-only: the committed test PKI in `internal/test-pki/fixtures`, read by relative path (core
 * must not depend on `@fhir-auth/test-pki`). The file reader is passed in by the test file, so
 * this helper, like all of core's `src`, imports no Node built-in.
 */

/** One case of `manifest.json`. */
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
    Record<
      | 'certificate'
      | 'privateKeyPkcs8'
      | 'privateKeyTraditional'
      | 'chain'
      | 'x5c'
      | 'pkcs12'
      | 'pkcs12Legacy',
      string
    >
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

/** Access to the fixture files. */
export interface TestPkiFiles {
  readonly manifest: Manifest
  text(path: string): string
  bytes(path: string): Uint8Array
  /** The manifest case with that name; throws for an unknown name. */
  manifestCase(name: string): ManifestCase
}

const fixturesDirectory = new URL('../../../../../internal/test-pki/fixtures/', import.meta.url)

/** Opens the fixtures with the test's file reader (`(url) => readFileSync(url)`). */
export function openTestPkiFiles(readFile: (url: URL) => Uint8Array): TestPkiFiles {
  const bytes = (path: string) => new Uint8Array(readFile(new URL(path, fixturesDirectory)))
  const text = (path: string) => new TextDecoder().decode(bytes(path))
  const manifest: Manifest = JSON.parse(text('manifest.json'))
  return {
    manifest,
    text,
    bytes,
    manifestCase: (name) => {
      const found = manifest.cases.find((entry) => entry.name === name)
      if (found === undefined) throw new Error(`no test PKI case ${name}`)
      return found
    },
  }
}
