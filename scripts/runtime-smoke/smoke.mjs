/**
 * Runtime smoke test of the BUILT portable packages (`dist` of core, smart, udap and
 * crypto-webcrypto), written once and run unchanged by Node, Deno and Bun (see run.mjs). It does
 * one real thing with each package: PKCE, a JWS signed and verified with the WebCrypto backend,
 * a certificate parsed and a fixture chain validated (and a revoked one refused), a SMART
 * authorization URL, and a UDAP authentication token signed for a certificate chain.
 *
 * Only the fixture files are read with `node:fs/promises`, which all three runtimes provide; the
 * library code under test uses web APIs alone. Prints one `ok`/`not ok` line per check and
 * exits non-zero when one fails.
 */
import { readFile } from 'node:fs/promises'
import {
  base64UrlEncode,
  CertificateChainError,
  computeCodeChallenge,
  generateCodeVerifier,
} from '../../packages/core/dist/index.js'
import { decodeCompactJws, signCompactJws } from '../../packages/core/dist/jws.js'
import { webCryptoBackend } from '../../packages/crypto-webcrypto/dist/index.js'
import { buildAuthorizationRequest } from '../../packages/smart/dist/index.js'
import { createAuthenticationToken, prepareUdapSigner } from '../../packages/udap/dist/index.js'

const fixtures = new URL('../../internal/test-pki/fixtures/', import.meta.url)
/** The time every verdict of the committed test PKI holds at. */
const referenceTime = new Date('2027-01-01T00:00:00Z')
const clientUri = 'https://client.example.test/app'

/** @param {string} path a file under internal/test-pki/fixtures */
const fixtureText = (path) => readFile(new URL(path, fixtures), 'utf8')

/** The current CRLs of the test PKI (every authority, no stale or corrupted one). */
async function currentCrls() {
  const manifest = JSON.parse(await fixtureText('manifest.json'))
  return Promise.all(manifest.currentCrls.map((name) => fixtureText(`crls/${name}.crl.pem`)))
}

/** @param {string} name a leaf of the test PKI */
async function leaf(name) {
  return {
    certificatePem: await fixtureText(`leaves/${name}/certificate.pem`),
    privateKeyPem: await fixtureText(`leaves/${name}/key.pkcs8.pem`),
    chainPem: await fixtureText(`leaves/${name}/chain.pem`),
  }
}

/** Splits a PEM bundle into its blocks. @param {string} pem */
const pemBlocks = (pem) => pem.match(/-----BEGIN [^-]+-----[\s\S]+?-----END [^-]+-----/g) ?? []

function assert(condition, message) {
  if (!condition) throw new Error(message)
}

const checks = {
  async 'PKCE: S256 challenge matches an independent SHA-256'() {
    const verifier = generateCodeVerifier()
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))
    const expected = base64UrlEncode(new Uint8Array(digest))
    assert((await computeCodeChallenge(verifier)) === expected, 'challenge differs')
  },

  async 'JWS: ES256 signed with the WebCrypto backend verifies, a tampered one does not'() {
    const client = await leaf('ec-p256-client')
    const signer = await webCryptoBackend.importSigner(client.privateKeyPem, { profile: 'udap' })
    assert(signer.alg === 'ES256', `expected ES256, got ${signer.alg}`)
    const jws = await signCompactJws({ typ: 'JWT' }, { iss: clientUri, n: 1 }, signer)
    const decoded = decodeCompactJws(jws)
    const certificate = await webCryptoBackend.parseCertificate(client.certificatePem)
    const check = {
      algorithm: 'ES256',
      publicKeySpki: certificate.publicKeySpki,
      data: decoded.signingInput,
      signature: decoded.signature,
    }
    assert(await webCryptoBackend.verifySignature(check), 'signature does not verify')
    const tampered = { ...check, data: new TextEncoder().encode(`${jws.split('.')[0]}.e30`) }
    assert(!(await webCryptoBackend.verifySignature(tampered)), 'tampered JWS verifies')
  },

  async 'X.509: parses a certificate and validates a fixture chain'() {
    const client = await leaf('rsa-client')
    const certificate = await webCryptoBackend.parseCertificate(client.certificatePem)
    assert(
      certificate.subject === 'CN=fhir-auth test client (RSA),OU=Leaf,O=fhir-auth Test PKI,C=US',
      `subject ${certificate.subject}`,
    )
    assert(certificate.subjectAltNameUris[0] === clientUri, 'SAN URI differs')
    const verified = await webCryptoBackend.verifyCertificateChain({
      chain: pemBlocks(client.chainPem),
      trustAnchors: [
        await fixtureText('authorities/rsa-root.pem'),
        await fixtureText('authorities/ec-root.pem'),
      ],
      crls: await currentCrls(),
      at: referenceTime,
    })
    assert(verified.path.length === 3, `path of ${verified.path.length}`)
  },

  async 'X.509: refuses the revoked fixture leaf with reason revoked'() {
    const revoked = await leaf('revoked')
    const outcome = await webCryptoBackend
      .verifyCertificateChain({
        chain: pemBlocks(revoked.chainPem),
        trustAnchors: [await fixtureText('authorities/rsa-root.pem')],
        crls: await currentCrls(),
        at: referenceTime,
      })
      .then(
        () => 'accepted',
        (error) => (error instanceof CertificateChainError ? error.reason : String(error)),
      )
    assert(outcome === 'revoked', `outcome ${outcome}`)
  },

  async 'SMART: builds an authorization URL with state and PKCE'() {
    const request = await buildAuthorizationRequest({
      authorizationEndpoint: 'https://auth.example.org/authorize',
      clientId: 'smoke-app',
      redirectUri: 'https://app.example.org/callback',
      scopes: ['launch/patient', 'patient/*.rs', 'openid'],
      audience: 'https://fhir.example.org/r4',
    })
    const url = new URL(request.authUrl)
    const query = Object.fromEntries(url.searchParams)
    assert(url.origin + url.pathname === 'https://auth.example.org/authorize', 'endpoint differs')
    assert(query.response_type === 'code' && query.client_id === 'smoke-app', 'parameters')
    assert(query.state === request.state && query.state.length >= 43, 'state')
    assert(query.code_challenge_method === 'S256', 'challenge method')
    assert(
      query.code_challenge === (await computeCodeChallenge(request.codeVerifier)),
      'challenge does not match the verifier',
    )
  },

  async 'UDAP: signs an authentication token whose x5c key verifies it'() {
    const client = await leaf('ec-p384-client')
    const { signer } = await prepareUdapSigner({
      crypto: webCryptoBackend,
      privateKey: client.privateKeyPem,
      certificateChain: pemBlocks(client.chainPem),
      clientUri,
      advertisedAlgorithms: ['ES384', 'RS256'],
      now: referenceTime,
    })
    const token = await createAuthenticationToken({
      issuer: 'client-123',
      tokenEndpoint: 'https://auth.example.test/token',
      signer,
    })
    const decoded = decodeCompactJws(token)
    const x5c = decoded.header.x5c
    assert(Array.isArray(x5c) && x5c.length === 2, 'x5c is not the leaf and its issuer')
    const leafCertificate = await webCryptoBackend.parseCertificate(
      `-----BEGIN CERTIFICATE-----\n${x5c[0]}\n-----END CERTIFICATE-----`,
    )
    const verified = await webCryptoBackend.verifySignature({
      algorithm: 'ES384',
      publicKeySpki: leafCertificate.publicKeySpki,
      data: decoded.signingInput,
      signature: decoded.signature,
    })
    assert(verified && decoded.payload.iss === 'client-123', 'token does not verify')
  },
}

const runtime =
  typeof globalThis.Deno === 'object'
    ? `Deno ${globalThis.Deno.version.deno}`
    : typeof globalThis.Bun === 'object'
      ? `Bun ${globalThis.Bun.version}`
      : `Node ${globalThis.process?.versions?.node}`
let failed = 0
for (const [name, check] of Object.entries(checks)) {
  try {
    await check()
    console.log(`ok - ${name}`)
  } catch (error) {
    failed++
    console.log(`not ok - ${name}: ${error instanceof Error ? error.message : String(error)}`)
  }
}
const total = Object.keys(checks).length
console.log(`${runtime}: ${total - failed} passed, ${failed} failed`)
if (failed > 0) globalThis.process?.exit?.(1) ?? globalThis.Deno?.exit(1)
