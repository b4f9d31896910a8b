/**
 * Benchmarks of the node:crypto backend (not a test: it prints figures measured in one run).
 *
 *   pnpm --filter @fhir-auth/crypto-node bench
 *
 * Compares native signing with node-forge's pure-JavaScript RSA (what a backend built on forge
 * alone would do), chain validation with a cold and a warm cache, and opening PKCS#12 files
 * with and without the one-time node-forge load.
 */
import { generateKeyPairSync } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createCertificateAuthority } from '@fhir-auth/test-pki/issuer'
import forge from 'node-forge'
import { createNodeCryptoBackend } from '../../src/index.js'

async function measure(label: string, iterations: number, run: () => unknown): Promise<number> {
  for (let warmup = 0; warmup < Math.min(20, iterations); warmup++) await run()
  const started = performance.now()
  for (let index = 0; index < iterations; index++) await run()
  const perCallMs = (performance.now() - started) / iterations
  console.log(`${label.padEnd(58)} ${perCallMs.toFixed(3).padStart(9)} ms/op`)
  return perCallMs
}

const fixtures = new URL('../fixtures/pkcs12/', import.meta.url)
const input = new TextEncoder().encode(`${'a'.repeat(120)}.${'b'.repeat(300)}`)

// Opening a PKCS#12 first, in a fresh backend, so the one-time node-forge load is measured.
const p12 = new Uint8Array(readFileSync(new URL('ec-modern.p12', fixtures)))
const legacyP12 = new Uint8Array(readFileSync(new URL('ec-3des.p12', fixtures)))
const first = performance.now()
await createNodeCryptoBackend().loadPkcs12(p12, 'udap-test')
console.log(
  `${'loadPkcs12, first call (loads node-forge)'.padEnd(58)} ${(performance.now() - first).toFixed(3).padStart(9)} ms`,
)
const backend = createNodeCryptoBackend()
await measure('loadPkcs12, PBES2 AES-256 + HMAC-SHA-256 (2048 iterations)', 20, () =>
  backend.loadPkcs12(p12, 'udap-test'),
)
await measure('loadPkcs12, legacy 3DES + HMAC-SHA-1 (2048 iterations)', 20, () =>
  backend.loadPkcs12(legacyP12, 'udap-test'),
)

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
const rsaPem = rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()
const p256Pem = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString()
const rs256 = await backend.importSigner(rsaPem, { profile: 'udap' })
const es256 = await backend.importSigner(p256Pem, { profile: 'udap' })
const native = await measure('RS256 sign, node:crypto (thread pool)', 500, () => rs256.sign(input))
await measure('ES256 sign, node:crypto (thread pool)', 2000, () => es256.sign(input))
const concurrent = performance.now()
await Promise.all(Array.from({ length: 500 }, () => rs256.sign(input)))
console.log(
  `${'RS256 sign, node:crypto, 500 concurrent'.padEnd(58)} ${((performance.now() - concurrent) / 500).toFixed(3).padStart(9)} ms/op`,
)
const forgeKey = forge.pki.privateKeyFromPem(
  rsa.privateKey.export({ format: 'pem', type: 'pkcs1' }).toString(),
)
const inputText = new TextDecoder().decode(input)
const pureJs = await measure('RS256 sign, node-forge pure JavaScript', 50, () => {
  const digest = forge.md.sha256.create()
  digest.update(inputText)
  return forgeKey.sign(digest)
})
console.log(`=> native RSA signing is ${(pureJs / native).toFixed(1)}× faster than pure-JS RSA`)

const notBefore = new Date('2025-01-01T00:00:00Z')
const notAfter = new Date('2045-01-01T00:00:00Z')
const root = await createCertificateAuthority({
  name: 'Bench Root',
  keyType: 'rsa2048',
  notBefore,
  notAfter,
})
const intermediate = await createCertificateAuthority({
  name: 'Bench Intermediate',
  keyType: 'rsa2048',
  issuer: root,
  notBefore,
  notAfter,
})
const leaf = await intermediate.issue({
  commonName: 'leaf',
  sanUris: ['https://client.example.test/app'],
  notBefore,
  notAfter,
})
const params = {
  chain: [leaf.certificatePem, intermediate.certificatePem],
  trustAnchors: [root.certificatePem],
  crls: [
    root.crl({ thisUpdate: notBefore, nextUpdate: notAfter }).crlPem,
    intermediate.crl({ thisUpdate: notBefore, nextUpdate: notAfter }).crlPem,
  ],
  at: new Date('2027-01-01T00:00:00Z'),
}
const cold = await measure('verifyCertificateChain, new backend each time (cold)', 200, () =>
  createNodeCryptoBackend().verifyCertificateChain(params),
)
const warm = await measure('verifyCertificateChain, same backend (cached parses)', 200, () =>
  backend.verifyCertificateChain(params),
)
console.log(`=> a warm cache makes repeated chain validation ${(cold / warm).toFixed(1)}× faster`)
