import { execFile } from 'node:child_process'
import { createPublicKey, type JsonWebKey, verify } from 'node:crypto'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Client, CryptoError, type Jwk } from '@fhir-auth/client'
import { type SmartSandbox, startSmartSandbox } from '@fhir-auth/sandbox'
import { compactVerify, importJWK, type JWK } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KmsClient, KmsSignRequest } from '../src/kms-client.js'
import { KmsJwsSigner } from '../src/kms-signer.js'
import { LocalKms } from '../src/local-kms.js'

const run = promisify(execFile)

let sandbox: SmartSandbox
const kms = new LocalKms()
let ecPublicJwk: Jwk
let rsaPublicJwk: Jwk

beforeAll(async () => {
  ;[ecPublicJwk, rsaPublicJwk] = await Promise.all([
    kms.createKey('ec-key', 'ECC_NIST_P384'),
    kms.createKey('rsa-key', 'RSA_2048'),
  ])
  sandbox = await startSmartSandbox({
    clients: [
      {
        client_id: 'ec-service',
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [{ ...ecPublicJwk, kid: 'ec-kid', alg: 'ES384', use: 'sig' }] },
      },
      {
        client_id: 'rsa-service',
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [{ ...rsaPublicJwk, kid: 'rsa-kid', alg: 'RS384', use: 'sig' }] },
      },
    ],
  })
})

afterAll(async () => {
  await sandbox?.close()
})

function backendClient(clientId: string, signer: KmsJwsSigner): Client {
  return new Client(
    {
      baseUrl: sandbox.fhirBaseUrl,
      clientId,
      privateKey: signer,
      kid: signer.kid,
      scopes: ['system/Patient.rs'],
      allowInsecureLocalhost: true,
    },
    { clientType: 'confidential_asymmetric' },
  )
}

function lastClientAssertion(): string {
  const tokenRequest = sandbox.requests.filter((request) => request.path === '/token').at(-1)
  const assertion = tokenRequest?.form?.client_assertion
  if (assertion === undefined) throw new Error('no client assertion was sent')
  return assertion
}

/** A KMS that records what it was asked and delegates to the local one. */
class RecordingKms implements KmsClient {
  readonly requests: KmsSignRequest[] = []
  async sign(request: KmsSignRequest): Promise<Uint8Array> {
    this.requests.push(request)
    return kms.sign(request)
  }
}

describe('KmsJwsSigner', () => {
  it('turns the KMS DER ECDSA signature into the 96-byte r‖s that JWS needs', async () => {
    const recording = new RecordingKms()
    const signer = new KmsJwsSigner({
      kms: recording,
      keyId: 'ec-key',
      alg: 'ES384',
      kid: 'ec-kid',
    })
    const message = new TextEncoder().encode('header.payload')

    const signature = await signer.sign(message)

    expect(recording.requests).toEqual([
      { keyId: 'ec-key', message, signingAlgorithm: 'ECDSA_SHA_384' },
    ])
    // DER would be 102–104 bytes starting with 0x30; JOSE r‖s is exactly 2 × 48.
    expect(signature).toHaveLength(96)
    const publicKey = createPublicKey({ key: ecPublicJwk as JsonWebKey, format: 'jwk' })
    const valid = verify(
      'sha384',
      message,
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      signature,
    )
    expect(valid).toBe(true)
  })

  it('passes RSA signatures through unchanged', async () => {
    const recording = new RecordingKms()
    const signer = new KmsJwsSigner({
      kms: recording,
      keyId: 'rsa-key',
      alg: 'RS384',
      kid: 'rsa-kid',
    })
    const message = new TextEncoder().encode('header.payload')

    const signature = await signer.sign(message)

    expect(recording.requests[0]?.signingAlgorithm).toBe('RSASSA_PKCS1_V1_5_SHA_384')
    expect(signature).toHaveLength(256)
    const publicKey = createPublicKey({ key: rsaPublicJwk as JsonWebKey, format: 'jwk' })
    expect(verify('sha384', message, publicKey, signature)).toBe(true)
  })
})

describe('a KMS-backed client against the SMART sandbox', () => {
  it('gets a Backend Services token with ES384 assertions signed by the KMS', async () => {
    const signer = new KmsJwsSigner({ kms, keyId: 'ec-key', alg: 'ES384', kid: 'ec-kid' })
    const token = await backendClient('ec-service', signer).requestBackendToken()

    expect(token.scope).toBe('system/Patient.rs')
    const assertion = lastClientAssertion()
    const { protectedHeader, payload } = await compactVerify(
      assertion,
      await importJWK(ecPublicJwk as JWK, 'ES384'),
    )
    expect(protectedHeader).toMatchObject({ alg: 'ES384', kid: 'ec-kid', typ: 'JWT' })
    expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({
      iss: 'ec-service',
      sub: 'ec-service',
      aud: sandbox.endpoints.token,
    })

    const patient = await fetch(`${sandbox.fhirBaseUrl}/Patient/patient-3`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    })
    expect(patient.status).toBe(200)
    expect(await patient.json()).toMatchObject({ resourceType: 'Patient', id: 'patient-3' })
  })

  it('gets a Backend Services token with RS384 assertions signed by the KMS', async () => {
    const signer = new KmsJwsSigner({ kms, keyId: 'rsa-key', alg: 'RS384', kid: 'rsa-kid' })
    const token = await backendClient('rsa-service', signer).requestBackendToken()

    expect(token.scope).toBe('system/Patient.rs')
    const { protectedHeader } = await compactVerify(
      lastClientAssertion(),
      await importJWK(rsaPublicJwk as JWK, 'RS384'),
    )
    expect(protectedHeader).toMatchObject({ alg: 'RS384', kid: 'rsa-kid' })
  })

  it('reports a KMS failure as CryptoError naming only the error class, and sends nothing', async () => {
    const failing = new LocalKms()
    await failing.createKey('disabled-key', 'ECC_NIST_P384')
    failing.disableKey('disabled-key')
    const signer = new KmsJwsSigner({
      kms: failing,
      keyId: 'disabled-key',
      alg: 'ES384',
      kid: 'ec-kid',
    })
    const tokenRequestsBefore = sandbox.requests.filter(
      (request) => request.path === '/token',
    ).length

    const failure = await backendClient('ec-service', signer)
      .requestBackendToken()
      .catch((error: unknown) => error)

    expect(failure).toBeInstanceOf(CryptoError)
    expect(failure).toMatchObject({ reason: 'invalid-signature' })
    expect((failure as Error).message).toContain('KmsError')
    expect((failure as Error).message).not.toContain('disabled-key')
    expect(sandbox.requests.filter((request) => request.path === '/token')).toHaveLength(
      tokenRequestsBefore,
    )
  })

  it('runs scripts/demo.ts: registration, token and Patient read', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', '--conditions=@fhir-auth/source', 'scripts/demo.ts'],
      { cwd: join(import.meta.dirname, '..'), timeout: 20_000 },
    )

    expect(stdout).toMatch(/registered client_id \S+/)
    expect(stdout).toContain('granted scope: system/Patient.rs')
    expect(stdout).toContain('GET Patient/patient-1: 200')
  })
})
