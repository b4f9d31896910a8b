/**
 * Guards the bundle discipline: a browser bundle of the package entry must contain no pkijs or
 * asn1js code (they are loaded with `import()` on the first `loadPkcs12` call), so a SMART-only
 * app does not ship them; and each capability loads apart (issue 16): signing with a JWK or a
 * `CryptoKey` reaches no DER, certificate, CRL or chain code, a PEM key no certificate code, and
 * verifying a signature no signing or certificate code. Runs in Node only (it drives esbuild).
 */
import { gzipSync } from 'node:zlib'
import { build, type Metafile } from 'esbuild'
import { describe, expect, it } from 'vitest'

const packageDirectory = new URL('..', import.meta.url).pathname
const lazyLibraries =
  /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(pkijs|asn1js|pvtsutils|pvutils|bytestreamjs)\//

async function bundle() {
  const result = await build({
    entryPoints: ['src/index.ts'],
    absWorkingDir: packageDirectory,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    minify: true,
    conditions: ['@fhir-auth/source'],
    outdir: 'bundle-out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const outputs = Object.entries(result.metafile.outputs)
  const entry = outputs.find(([, output]) => output.entryPoint === 'src/index.ts')
  if (entry === undefined) throw new Error('no entry chunk')
  const textOf = (path: string) => {
    const file = result.outputFiles.find((output) => output.path.endsWith(path))
    if (file === undefined) throw new Error(`no output ${path}`)
    return file.text
  }
  return { outputs, entry, textOf }
}

/** The chunks the entry loads before any code runs: itself and its static imports. */
function staticClosure(outputs: [string, Metafile['outputs'][string]][], start: string): string[] {
  const seen = new Set<string>([start])
  const queue = [start]
  while (queue.length > 0) {
    const next = queue.pop()
    const current = outputs.find(([path]) => path === next)
    for (const imported of current?.[1].imports ?? []) {
      if (imported.kind === 'import-statement' && !seen.has(imported.path)) {
        seen.add(imported.path)
        queue.push(imported.path)
      }
    }
  }
  return [...seen]
}

describe('browser bundle of @fhir-auth/crypto-webcrypto', () => {
  it('keeps pkijs and asn1js out of the entry chunk and its static imports', async () => {
    const { outputs, entry, textOf } = await bundle()
    const eager = staticClosure(outputs, entry[0])
    for (const path of eager) {
      const output = outputs.find(([candidate]) => candidate === path)?.[1]
      const libraries = Object.keys(output?.inputs ?? {}).filter((input) =>
        lazyLibraries.test(input),
      )
      expect(libraries, `${path} bundles ${libraries.join(', ')}`).toEqual([])
      // Class names pkijs registers at runtime survive minification as strings.
      expect(textOf(path)).not.toMatch(
        /AuthenticatedSafe|PKCS8ShroudedKeyBag|CertificateRevocationList/,
      )
    }
    const sizes = eager.map((path) => gzipSync(textOf(path)).length)
    const gzipBytes = sizes.reduce((total, size) => total + size, 0)
    console.info(
      `crypto-webcrypto browser bundle: entry ${sizes[0]} B gzip, with static imports ${gzipBytes} B gzip (${eager.length} chunks)`,
    )
    expect(gzipBytes).toBeLessThan(40_000)
  })

  it('still bundles pkijs, in a chunk loaded only by import()', async () => {
    const { outputs, entry } = await bundle()
    const lazy = outputs.filter(([, output]) =>
      Object.keys(output.inputs).some((input) => /node_modules\/.*pkijs\//.test(input)),
    )
    expect(lazy.length).toBeGreaterThan(0)
    const dynamicImports = entry[1].imports.filter((imported) => imported.kind === 'dynamic-import')
    expect(dynamicImports.length).toBeGreaterThan(0)
  })
})

/** The output path of the chunk an entry point (a lazily loaded capability) starts. */
function outputPathOf(
  outputs: [string, Metafile['outputs'][string]][],
  entryPoint: string,
): string {
  const entry = outputs.find(([, output]) => output.entryPoint === entryPoint)
  if (entry === undefined) throw new Error(`${entryPoint} is not a chunk of its own`)
  return entry[0]
}

/** The chunk an entry point starts. */
function ownChunkOf(
  outputs: [string, Metafile['outputs'][string]][],
  entryPoint: string,
): Metafile['outputs'][string] {
  const path = outputPathOf(outputs, entryPoint)
  return outputs.find(([candidate]) => candidate === path)?.[1] as Metafile['outputs'][string]
}

/** The source modules a lazily loaded capability brings: its chunk and the chunks it imports. */
function sourcesLoadedWith(
  outputs: [string, Metafile['outputs'][string]][],
  entryPoint: string,
): string[] {
  return staticClosure(outputs, outputPathOf(outputs, entryPoint)).flatMap((path) =>
    Object.entries(outputs.find(([candidate]) => candidate === path)?.[1].inputs ?? {})
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([input]) => input),
  )
}

const certificateCode =
  /core\/src\/x509\/(chain|certificate|crl|path-rules|name-|general-names|distribution|key-usage|signed-structure|signature-)|src\/(certificates|keys|pkcs12)\//

describe('what each capability of the backend loads', () => {
  it('creating the backend loads none of them', async () => {
    const { outputs, entry } = await bundle()
    const sources = staticClosure(outputs, entry[0]).flatMap((path) =>
      Object.keys(outputs.find(([candidate]) => candidate === path)?.[1].inputs ?? {}),
    )
    expect(
      sources.filter((source) =>
        /src\/(signer|verify|certificates|keys|pkcs12)\/|x509/.test(source),
      ),
    ).toEqual([])
  })

  it('signing with a JWK or a CryptoKey loads no DER, PEM, certificate, CRL or chain code', async () => {
    const { outputs } = await bundle()
    const sources = sourcesLoadedWith(outputs, 'src/signer/import-signer.ts')
    expect(sources).toContain('src/signer/private-jwk.ts')
    expect(sources.filter((source) => /x509\/|pem-key|src\/verify\//.test(source))).toEqual([])
  })

  it('signing with a JWK reads no CryptoKey, and finds the key forms in its own chunk', async () => {
    const { outputs } = await bundle()
    const sources = sourcesLoadedWith(outputs, 'src/signer/import-signer.ts')
    expect(sources.filter((source) => source.endsWith('crypto-key-description.ts'))).toEqual([])
    // Certificates read key forms too: they load them from the signing chunk, so these files
    // are not a chunk of their own that signing has to fetch besides.
    expect(Object.keys(ownChunkOf(outputs, 'src/signer/import-signer.ts').inputs)).toEqual(
      expect.arrayContaining(['src/signer/private-key-form.ts', 'src/signer/private-jwk.ts']),
    )
    expect(Object.keys(ownChunkOf(outputs, 'src/signer/crypto-key-description.ts').inputs)).toEqual(
      ['src/signer/crypto-key-description.ts'],
    )
  })

  it("signing and verification share one chunk of this package's code, the WebCrypto calls", async () => {
    const { outputs } = await bundle()
    const sharedChunksOf = (entryPoint: string) =>
      staticClosure(outputs, outputPathOf(outputs, entryPoint))
        .filter((path) => path !== outputPathOf(outputs, entryPoint))
        .filter((path) =>
          Object.keys(outputs.find(([candidate]) => candidate === path)?.[1].inputs ?? {}).some(
            (input) => input.startsWith('src/'),
          ),
        )
    const signing = sharedChunksOf('src/signer/import-signer.ts')
    expect(signing).toHaveLength(1)
    expect(sharedChunksOf('src/verify/verify-signature.ts')).toEqual(signing)
    const inputs = Object.keys(outputs.find(([path]) => path === signing[0])?.[1].inputs ?? {})
    expect(inputs).toEqual(['src/webcrypto-calls.ts'])
  })

  it('a PEM key adds DER and PEM reading, still no certificate code', async () => {
    const { outputs } = await bundle()
    const sources = sourcesLoadedWith(outputs, 'src/signer/pem-key.ts')
    expect(sources.some((source) => source.endsWith('core/src/x509/private-key.ts'))).toBe(true)
    expect(sources.filter((source) => certificateCode.test(source))).toEqual([])
  })

  it('verifying a signature loads the SPKI key type reader only: no other X.509, signing, PEM, certificate or chain code', async () => {
    const { outputs } = await bundle()
    const sources = sourcesLoadedWith(outputs, 'src/verify/verify-signature.ts')
    // The key type and curve, with the DER element reader: an ID token's check needs no more.
    expect(sources.filter((source) => source.includes('core/src/x509/')).sort()).toEqual([
      expect.stringMatching(/core\/src\/x509\/der-element\.ts$/),
      expect.stringMatching(/core\/src\/x509\/spki-key-type\.ts$/),
    ])
    expect(
      sources.filter(
        (source) =>
          certificateCode.test(source) ||
          /src\/signer\/|x509\/(private-key|pem)|core\/src\/crypto\/(algorithms|jws)/.test(source),
      ),
    ).toEqual([])
  })

  it('certificates load the X.509 code and the path policy, when first used', async () => {
    const { outputs } = await bundle()
    const sources = sourcesLoadedWith(outputs, 'src/certificates/certificate-services.ts')
    expect(sources.some((source) => source.endsWith('core/src/x509/chain.ts'))).toBe(true)
    expect(sources.some((source) => source.endsWith('src/keys/key-matches-certificate.ts'))).toBe(
      true,
    )
  })
})
