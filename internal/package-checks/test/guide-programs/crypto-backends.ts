// A signer whose private key stays in your KMS or HSM: the library hands it the JWS signing
// input and takes the JOSE signature back. Here node:crypto stands in for the KMS; against the
// sandbox, use its backend client (a P-384 key, so ES384).
import { createPrivateKey, sign } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Client } from '@fhir-auth/client'
import type { JwsSigner } from '@fhir-auth/core'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`set ${name}`)
  return value
}

const kmsKey = createPrivateKey(readFileSync(env('PRIVATE_KEY_FILE'), 'utf8'))
const signer: JwsSigner = {
  alg: 'ES384',
  kid: env('KID'),
  // ECDSA as r‖s (96 bytes for P-384), as JWS wants it; a KMS returning DER needs
  // ecdsaDerToJose from @fhir-auth/core/jws.
  sign: async (signingInput) =>
    new Uint8Array(sign('sha384', signingInput, { key: kmsKey, dsaEncoding: 'ieee-p1363' })),
}

const client = new Client(
  {
    baseUrl: env('FHIR_BASE_URL'),
    clientId: env('CLIENT_ID'),
    privateKey: signer, // instead of a PEM, JWK, CryptoKey or KeyObject
    kid: signer.kid, // SMART: the kid the server registered
    scopes: ['system/Patient.rs'],
    allowInsecureLocalhost: process.env.ALLOW_INSECURE_LOCALHOST === 'true',
  },
  { clientType: 'confidential_asymmetric' },
)
const token = await client.requestBackendToken()
console.log(`granted ${token.scope}, the assertion signed by the KMS signer`)
