// Key rotation for a SMART backend service: the app serves its own JWKS, registers its URL, gets
// a token with the current key, and switches to the next key only once that key is published.
// Against the sandbox: its base URL and the initial access token `npx -y pnpm@10 sandbox` prints.
import { generateKeyPairSync } from 'node:crypto'
import { createServer } from 'node:http'
import { Client, publicJwks } from '@fhir-auth/client'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`set ${name}`)
  return value
}

const baseUrl = env('FHIR_BASE_URL')
const allowInsecureLocalhost = process.env.ALLOW_INSECURE_LOCALHOST === 'true'

// In production these are files (`fhir-auth keys generate --alg ES384 --out next.pem`).
const newKey = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-384' })
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString()
const current = newKey()
const next = newKey()

// The JWKS route answers from the keys published now. Step 1 of a rotation: publish the next
// key beside the current one. Servers cache a JWKS (max-age below, often longer), so a key must be
// published for at least that long before anything is signed with it.
let published = [current, next]
const jwksServer = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' })
  response.end(JSON.stringify(publicJwks(published)))
})
await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve))
const { port } = jwksServer.address() as { port: number }
// Production: an HTTPS URL the EHR can reach (Epic requires one for backend apps).
const jwksUri = `http://127.0.0.1:${port}/jwks.json`

const registrar = new Client({ baseUrl, allowInsecureLocalhost })
const { client_id: clientId } = await registrar.registerClient(
  {
    client_name: 'Nightly export',
    grant_types: ['client_credentials'],
    token_endpoint_auth_method: 'private_key_jwt',
    jwks_uri: jwksUri,
    scope: 'system/Patient.rs',
  },
  { authorization: `Bearer ${env('INITIAL_ACCESS_TOKEN')}` },
)

// Each key's kid is its RFC 7638 thumbprint, the kid publicJwks published it under.
const kidOf = (privateKey: string) => publicJwks([privateKey]).keys[0]?.kid
const clientSigningWith = (privateKey: string) =>
  new Client(
    {
      baseUrl,
      clientId,
      privateKey,
      kid: kidOf(privateKey),
      jwksUri,
      scopes: ['system/Patient.rs'],
      allowInsecureLocalhost,
    },
    { clientType: 'confidential_asymmetric' },
  )

const before = await clientSigningWith(current).requestBackendToken()
console.log(`current key: granted ${before.scope}`)

// Step 2, once the next key has been published long enough: sign with it.
const after = await clientSigningWith(next).requestBackendToken()
console.log(`next key: granted ${after.scope}`)

// Step 3: retire the old key and publish the one after, ready for the next rotation.
published = [next, newKey()]
const publishedKids = publicJwks(published).keys.map((key) => key.kid)
console.log(`published kids: ${publishedKids.join(', ')}`)
jwksServer.close()
