/**
 * Runs with plain Node inside a scratch project where the six packed tarballs were installed
 * with npm (see scripts/check-packages.mjs). It imports every published entry point from that
 * project's node_modules — never the workspace sources — and does one real thing with each, so
 * a broken `exports`/`imports` map, a file missing from `files`, or a dependency that resolves
 * only inside the monorepo fails here instead of for the first user.
 *
 * Usage: node node-smoke.mjs <test-pki fixtures directory>
 * Prints one `ok <check>` line per check; any failure throws and exits non-zero.
 */
import assert from 'node:assert/strict'
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { run as runCli } from '@fhir-auth/cli'
import { Client } from '@fhir-auth/client'
import {
  base64UrlDecode,
  base64UrlEncodeText,
  computeCodeChallenge,
  generateCodeVerifier,
} from '@fhir-auth/core'
import { certificateDer, decodePemBlocks } from '@fhir-auth/core/backend'
import { decodeCompactJws, signCompactJws } from '@fhir-auth/core/jws'
import { nodeCryptoBackend } from '@fhir-auth/crypto-node'
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { SmartMetadata } from '@fhir-auth/smart'
import { redisStore } from '@fhir-auth/store-redis'
import { udapDiscoveryUrl } from '@fhir-auth/udap'
import { nodeHandler, smartWebApp } from '@fhir-auth/web'

const fixtures = process.argv[2]
if (fixtures === undefined) throw new Error('usage: node node-smoke.mjs <fixtures directory>')
const fixture = (path) => readFileSync(join(fixtures, path))
const fixtureText = (path) => fixture(path).toString('utf8')

/** The test PKI's reference time: every fixture certificate and CRL is current then. */
const referenceTime = new Date('2027-01-01T00:00:00Z')
const leafSanUri = 'https://client.example.test/app'

function ok(check) {
  console.log(`ok ${check}`)
}

/** Verifies a compact JWS with node:crypto alone, so the check does not trust our own code. */
function verifyCompactJws(jws, publicKeyPem) {
  const [header, payload, signature] = jws.split('.')
  const decodedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'))
  const hash = `sha${decodedHeader.alg.slice(2)}`
  return verify(
    hash,
    Buffer.from(`${header}.${payload}`),
    { key: createPublicKey(publicKeyPem), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  )
}

/**
 * A P-384 key pair as PEM. Node 20 can deadlock when a freshly generated EC KeyObject is
 * exported as a JWK, so the key only ever leaves as PEM.
 */
function p384KeyPair() {
  return generateKeyPairSync('ec', {
    namedCurve: 'P-384',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  })
}

function jsonResponse(body, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

/**
 * The Redis store against an in-memory stand-in for a redis v5 client (no server here): a value
 * goes in sealed and comes back; the peer dependency `redis` was installed beside it.
 */
async function checkStoreRedis() {
  const data = new Map()
  const client = {
    get: async (key) => data.get(key) ?? null,
    set: async (key, value, options) => {
      if (options?.condition === 'NX' && data.has(key)) return null
      data.set(key, value)
      return 'OK'
    },
    del: async (key) => Number(data.delete(key)),
    getDel: async (key) => {
      const value = data.get(key) ?? null
      data.delete(key)
      return value
    },
  }
  const store = redisStore(client, { encryptionKey: new Uint8Array(32).fill(7) })
  await store.set('fhir-auth:smoke', 'token-text', 60)
  assert.doesNotMatch([...data.values()].join(), /token-text/)
  assert.equal(await store.take('fhir-auth:smoke'), 'token-text')
  const { createClient } = await import('redis')
  assert.equal(typeof createClient, 'function')
  ok('@fhir-auth/store-redis: sealed round trip; redis v5 installed as its peer')
}

async function checkWeb() {
  const client = new Client({
    baseUrl: 'https://ehr.example.org/fhir',
    clientId: 'app',
    redirectUri: 'https://app.example/callback',
    scopes: ['launch'],
  })
  const web = smartWebApp({ clients: client })
  const unknown = await web.handle(
    new Request('https://app.example/launch?iss=https%3A%2F%2Fother.example%2Ffhir&launch=x'),
  )
  assert.equal(unknown?.status, 400)
  assert.equal((await web.handle(new Request('https://app.example/logout')))?.status, 405)
  assert.equal(await web.handle(new Request('https://app.example/elsewhere')), undefined)
  assert.equal(typeof nodeHandler(web), 'function')
  ok('@fhir-auth/web: routes answer on Fetch Requests; nodeHandler adapts them')
}

async function checkCore() {
  assert.equal(base64UrlEncodeText('fhir-auth'), 'Zmhpci1hdXRo')
  const verifier = generateCodeVerifier()
  const challenge = await computeCodeChallenge(verifier)
  assert.match(challenge, /^[A-Za-z0-9_-]{43}$/)
  assert.equal(base64UrlDecode(challenge)?.length, 32)
  ok('@fhir-auth/core: base64url and PKCE S256')

  const chain = decodePemBlocks(fixtureText('leaves/rsa-client/chain.pem'), 'CERTIFICATE')
  assert.equal(chain.length, 2)
  assert.deepEqual(
    certificateDer(fixtureText('leaves/rsa-client/certificate.pem')),
    new Uint8Array(fixture('leaves/rsa-client/certificate.der')),
  )
  ok('@fhir-auth/core/internal: PEM decoding')
}

function checkSmart() {
  const metadata = SmartMetadata.fromJson(
    {
      authorization_endpoint: 'auth/authorize',
      token_endpoint: 'https://ehr.example.org/auth/token',
      capabilities: ['launch-ehr', 'authorize-post'],
    },
    { baseUrl: 'https://ehr.example.org/fhir/' },
  )
  assert.equal(metadata.authorizationEndpoint, 'https://ehr.example.org/fhir/auth/authorize')
  assert.equal(metadata.supportsPostAuthorization(), true)
  ok('@fhir-auth/smart: SmartMetadata resolves endpoints and reads capabilities')
}

function checkUdap() {
  assert.equal(
    udapDiscoveryUrl('https://fhir.example.org/r4/', 'udap://community.example/'),
    'https://fhir.example.org/r4/.well-known/udap?community=udap%3A%2F%2Fcommunity.example%2F',
  )
  ok('@fhir-auth/udap: discovery URL with a trust community')
}

async function checkCryptoNode() {
  const keys = p384KeyPair()
  const signer = await nodeCryptoBackend.importSigner(keys.privateKey, {
    profile: 'smart',
    kid: 'smoke-key',
  })
  assert.equal(signer.alg, 'ES384')
  const jws = await signCompactJws({ typ: 'JWT', kid: signer.kid }, { sub: 'smoke' }, signer)
  assert.equal(verifyCompactJws(jws, keys.publicKey), true)
  ok('@fhir-auth/crypto-node: ES384 JWS verified by node:crypto')

  // The legacy 3DES file needs node-forge: proves the registry dependency installed and loads.
  const legacy = await nodeCryptoBackend.loadPkcs12(
    new Uint8Array(fixture('leaves/rsa-client/bundle.legacy.p12')),
    'udap-test',
  )
  assert.ok(legacy.certificateChain.length >= 2)
  const leaf = await nodeCryptoBackend.parseCertificate(legacy.certificateChain[0])
  assert.deepEqual(leaf.subjectAltNameUris, [leafSanUri])
  ok('@fhir-auth/crypto-node: legacy PKCS#12 through node-forge')
}

async function checkCryptoWebCrypto() {
  const leafPem = fixtureText('leaves/rsa-client/certificate.pem')
  const leaf = await webCryptoBackend.parseCertificate(leafPem)
  assert.deepEqual(leaf.subjectAltNameUris, [leafSanUri])

  const verified = await webCryptoBackend.verifyCertificateChain({
    chain: decodePemBlocks(fixtureText('leaves/rsa-client/chain.pem'), 'CERTIFICATE'),
    trustAnchors: [fixtureText('authorities/rsa-root.pem')],
    crls: [fixtureText('crls/rsa-root.crl.pem'), fixtureText('crls/rsa-intermediate.crl.pem')],
    at: referenceTime,
  })
  assert.equal(verified.path.length, 3)
  ok('@fhir-auth/crypto-webcrypto: certificate parsed and chain verified with CRLs')

  // PBES2 PKCS#12 needs pkijs and asn1js: proves those registry dependencies load.
  const bundle = await webCryptoBackend.loadPkcs12(
    new Uint8Array(fixture('leaves/rsa-client/bundle.p12')),
    'udap-test',
  )
  assert.ok(bundle.certificateChain.length >= 2)
  ok('@fhir-auth/crypto-webcrypto: PBES2 PKCS#12 through pkijs')
}

async function checkClient() {
  const refuseNetwork = async (url) => {
    throw new Error(`the smoke test must not reach the network (${url})`)
  }
  const launchClient = new Client(
    {
      baseUrl: 'https://ehr.example.org/fhir',
      clientId: 'smoke-app',
      redirectUri: 'https://app.example.org/callback',
      scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser'],
      authorizationEndpoint: 'https://ehr.example.org/auth/authorize',
    },
    { fetch: refuseNetwork },
  )
  const { authUrl, state, codeVerifier } = await launchClient.authorizationUrl()
  const url = new URL(authUrl)
  assert.equal(`${url.origin}${url.pathname}`, 'https://ehr.example.org/auth/authorize')
  assert.equal(url.searchParams.get('state'), state)
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256')
  assert.equal(url.searchParams.get('code_challenge'), await computeCodeChallenge(codeVerifier))
  ok('@fhir-auth/client: authorizationUrl with a configured endpoint')

  // Backend Services with no `crypto` option: the `#default-crypto` import must pick the Node
  // backend from the installed tree and sign an assertion that node:crypto verifies.
  const keys = p384KeyPair()
  let assertion
  const tokenEndpoint = 'https://ehr.example.org/auth/token'
  const backendClient = new Client(
    {
      baseUrl: 'https://ehr.example.org/fhir',
      clientId: 'smoke-service',
      scopes: ['system/Patient.rs'],
      privateKey: keys.privateKey,
      kid: 'smoke-key',
      tokenEndpoint,
    },
    {
      clientType: 'confidential_asymmetric',
      fetch: async (requestUrl, init) => {
        assert.equal(requestUrl, tokenEndpoint)
        assertion = new URLSearchParams(String(init.body)).get('client_assertion')
        return jsonResponse({
          access_token: 'smoke-access-token',
          token_type: 'bearer',
          expires_in: 300,
          scope: 'system/Patient.rs',
        })
      },
    },
  )
  const token = await backendClient.requestBackendToken()
  assert.equal(token.access_token, 'smoke-access-token')
  assert.equal(typeof assertion, 'string')
  assert.equal(decodeCompactJws(assertion).header.alg, 'ES384')
  assert.equal(verifyCompactJws(assertion, keys.publicKey), true)
  ok('@fhir-auth/client: backend services token with the default Node crypto backend')
}

/** The CLI as installed: `--version` through its programmatic entry, output captured. */
async function checkCli() {
  let output = ''
  const io = {
    stdout: { write: (text) => (output += text) },
    stderr: { write: () => {} },
    stdin: (async function* () {})(),
    env: {},
  }
  const code = await runCli(['--version'], io)
  assert.equal(code, 0)
  assert.match(output, /\d+\.\d+\.\d+/)
  ok('@fhir-auth/cli: fhir-auth --version')
}

await checkCore()
checkSmart()
checkUdap()
await checkCryptoNode()
await checkCryptoWebCrypto()
await checkStoreRedis()
await checkClient()
await checkCli()
await checkWeb()
