/**
 * `pnpm demo`: the library's main job against the embedded local sandbox, as a transcript.
 *
 * This first version exercises @fhir-auth/core (configuration with redaction, PKCE and state,
 * a signed JWS and the HTTP transport policy against a loopback server); the SMART and UDAP walks
 * are added as their packages land.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { generateKeyPairSync, sign } from 'node:crypto'
import {
  ClientConfig,
  computeCodeChallenge,
  FhirAuthError,
  generateCodeVerifier,
  generateState,
  parseJsonObjectBody,
  sendRequest,
  signCompactJws,
} from '@fhir-auth/core'
import { bold, note, ok, received, refused, sent, step } from './transcript.js'

async function main(): Promise<void> {
  console.log(bold('fhir-auth demo — @fhir-auth/core'))

  step('A client configuration is validated, frozen and never shows its secrets')
  const config = new ClientConfig({
    baseUrl: 'https://ehr.example.org/fhir',
    clientId: 'demo-app',
    clientSecret: 'demo-secret-never-printed',
    scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser'],
  })
  received('config', config.toJSON())
  try {
    new ClientConfig({ baseUrl: 'fhir/r4' })
  } catch (error) {
    if (error instanceof FhirAuthError) refused(`${error.name}: ${error.message}`)
  }

  step('PKCE and state for an authorization request')
  const verifier = generateCodeVerifier()
  sent('state', `${generateState().length} characters (256 bits)`)
  sent('code_challenge (S256)', await computeCodeChallenge(verifier))
  note('the code verifier stays with the client and is never logged')

  step('A signed JWT assembled by core, signed by any backend')
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' })
  const jws = await signCompactJws({ typ: 'JWT', kid: 'demo' }, { iss: 'demo-app', sub: 'demo-app' }, {
    alg: 'ES384',
    kid: 'demo',
    sign: async (input) => new Uint8Array(sign('sha384', input, { key: privateKey, dsaEncoding: 'ieee-p1363' })),
  })
  sent('client_assertion', jws)
  ok(`ES384 compact JWS of ${jws.length} characters; the transcript redacts every JWT`)

  step('The HTTP transport policy: HTTPS only, loopback HTTP by explicit opt-in')
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ resourceType: 'CapabilityStatement', status: 'active' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fhir/metadata`
  try {
    await sendRequest({ method: 'GET', url })
  } catch (error) {
    if (error instanceof FhirAuthError) refused(`${error.name}: ${error.message}`)
  }
  const response = await sendRequest({ method: 'GET', url, allowInsecureLocalhost: true })
  received(`HTTP ${response.status}`, parseJsonObjectBody(response))
  server.close()
  ok('done')
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
