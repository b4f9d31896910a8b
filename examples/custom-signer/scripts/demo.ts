/**
 * Runs the custom signer end to end against the local SMART sandbox (`npx -y pnpm@10 start`):
 * create a P-384 key in the (local stand-in) KMS, register its public key with the server by
 * RFC 7591 dynamic registration, then get a Backend Services token with client assertions
 * signed by the KMS and read a Patient with it.
 */
import { Client } from '@fhir-auth/client'
import { startSmartSandbox } from '@fhir-auth/sandbox'
import { KmsJwsSigner } from '../src/kms-signer.js'
import { LocalKms } from '../src/local-kms.js'

const kms = new LocalKms()
const keyId = 'fhir-client-signing-key'
const kid = 'kms-key-1'
const publicJwk = await kms.createKey(keyId, 'ECC_NIST_P384')

const sandbox = await startSmartSandbox()
try {
  // Registration is a one-off step; only the public key travels to the server.
  const registrar = new Client({ baseUrl: sandbox.fhirBaseUrl, allowInsecureLocalhost: true })
  const registration = await registrar.registerClient(
    {
      client_name: 'KMS signer example',
      token_endpoint_auth_method: 'private_key_jwt',
      grant_types: ['client_credentials'],
      scope: 'system/Patient.rs',
      jwks: { keys: [{ ...publicJwk, kid, alg: 'ES384', use: 'sig' }] },
    },
    { authorization: `Bearer ${sandbox.initialAccessToken}` },
  )
  console.log(`registered client_id ${registration.client_id}`)

  const client = new Client(
    {
      baseUrl: sandbox.fhirBaseUrl,
      clientId: String(registration.client_id),
      privateKey: new KmsJwsSigner({ kms, keyId, alg: 'ES384', kid }),
      kid,
      scopes: ['system/Patient.rs'],
      allowInsecureLocalhost: true,
    },
    { clientType: 'confidential_asymmetric' },
  )
  const token = await client.requestBackendToken()
  console.log(`granted scope: ${token.scope}`)

  const response = await fetch(`${sandbox.fhirBaseUrl}/Patient/patient-1`, {
    headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/fhir+json' },
  })
  console.log(`GET Patient/patient-1: ${response.status} ${await response.text()}`)
} finally {
  await sandbox.close()
}
