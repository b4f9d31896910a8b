// UDAP B2B: trusted discovery, a signed registration, and a client-credentials token with the
// hl7-b2b extension. Against the sandbox: the UDAP base URL, trust anchor, the two CRLs, and the
// client key, chain and client URI `npx -y pnpm@10 sandbox` prints.
import { readFileSync } from 'node:fs'
import { Client } from '@fhir-auth/client'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`set ${name}`)
  return value
}
const pem = (file: string) => readFileSync(file, 'utf8')

// No default trust store: the community's anchor. The CRLs of the server's chain are fetched
// from its certificates' distribution points and kept until their nextUpdate (pass `crls` to
// supply them yourself).
const trust = {
  trustedAnchors: [pem(env('TRUST_ANCHOR_FILE'))],
}
const clientUri = env('CLIENT_URI') // a URI SAN of the client certificate

const client = new Client(
  {
    baseUrl: env('FHIR_BASE_URL'),
    privateKey: pem(env('PRIVATE_KEY_FILE')),
    certificateChain: [pem(env('CERTIFICATE_CHAIN_FILE'))], // PEM, leaf first
    scopes: ['system/*.rs'],
    allowInsecureLocalhost: process.env.ALLOW_INSECURE_LOCALHOST === 'true',
  },
  { protocol: 'udap' },
)

const metadata = await client.serverMetadata(trust) // signed_metadata checked against `trust`
console.log(`trusted ${metadata.signedClaims.iss}`)

const registration = await client.registerClient(
  {
    client_name: 'My B2B App',
    contacts: ['mailto:admin@example.org'],
    grant_types: ['client_credentials'],
    scope: 'system/*.rs',
  },
  { clientUri, ...trust },
)
console.log(`registered ${registration.client_id}`)

const token = await client.requestBackendToken({
  b2b: {
    organizationId: 'https://org.example/organizations/1',
    purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
  },
  ...trust,
})
console.log(`granted ${token.scope} for ${token.expires_in} s`)
