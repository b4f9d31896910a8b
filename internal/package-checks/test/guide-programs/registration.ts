// SMART dynamic client registration (RFC 7591): a backend service registers its public key with
// an initial access token, then gets its first token as the new client. Against the sandbox: its
// base URL and the initial access token `npx -y pnpm@10 sandbox` prints.
import { createPublicKey, generateKeyPairSync } from 'node:crypto'
import { Client } from '@fhir-auth/client'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`set ${name}`)
  return value
}

const baseUrl = env('FHIR_BASE_URL')
const allowInsecureLocalhost = process.env.ALLOW_INSECURE_LOCALHOST === 'true'

// A new P-384 key (ES384). The PEM round trip before the JWK export avoids a rare Node 20
// deadlock with freshly generated EC keys.
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' })
const privateKeyPem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()
const kid = 'nightly-export-1'
const publicJwk = { ...createPublicKey(privateKeyPem).export({ format: 'jwk' }), kid, alg: 'ES384' }

// Only baseUrl is needed to register: the registration endpoint is discovered.
const registrar = new Client({ baseUrl, allowInsecureLocalhost })
const registration = await registrar.registerClient(
  {
    client_name: 'Nightly export',
    grant_types: ['client_credentials'],
    token_endpoint_auth_method: 'private_key_jwt',
    jwks: { keys: [publicJwk] },
    scope: 'system/Patient.rs',
  },
  { authorization: `Bearer ${env('INITIAL_ACCESS_TOKEN')}` },
)
console.log(`registered ${registration.client_id}`) // store it durably

const client = new Client(
  {
    baseUrl,
    clientId: registration.client_id,
    privateKey: privateKeyPem,
    kid,
    scopes: ['system/Patient.rs'],
    allowInsecureLocalhost,
  },
  { clientType: 'confidential_asymmetric' },
)
const token = await client.requestBackendToken()
console.log(`granted ${token.scope} to the new client`)
