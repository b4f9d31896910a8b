/** A fake UDAP token endpoint that records each request's `hl7-b2b` context (DESIGN §9 suite). */
import { Client, type ClientOptions } from '@fhir-auth/client'
import { fakeRoutes, jsonResponse } from '@fhir-auth/test-utils/fake-fetch'
import { rsaLeaf } from './smart-token-server.js'

export const udapBase = 'https://udap.example.test/fhir'
export const udapTokenUrl = 'https://udap.example.test/token'

export interface UdapServer {
  readonly fetch: NonNullable<ClientOptions['fetch']>
  tokenRequests(): number
  /** The `extensions.hl7-b2b` claim of each authentication token received. */
  readonly b2bContexts: unknown[]
}

function jwtClaims(jwt: string): Record<string, unknown> {
  const payload = jwt.split('.')[1] ?? ''
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
}

export function udapServer(): UdapServer {
  let issued = 0
  const b2bContexts: unknown[] = []
  const routes = fakeRoutes({
    [udapTokenUrl]: (request) => {
      issued += 1
      const assertion = new URLSearchParams(request.bodyText).get('client_assertion') ?? ''
      const extensions = jwtClaims(assertion).extensions as Record<string, unknown> | undefined
      b2bContexts.push(extensions?.['hl7-b2b'])
      return jsonResponse({ access_token: `udap-${issued}`, token_type: 'Bearer', expires_in: 300 })
    },
  })
  return { fetch: routes.fetch, tokenRequests: () => issued, b2bContexts }
}

/** A registered UDAP client (RSA leaf of the test PKI) whose token endpoint is configured. */
export function udapClient(server: UdapServer): Client {
  return new Client(
    {
      baseUrl: udapBase,
      clientId: 'udap-client-1',
      scopes: ['system/Patient.rs'],
      privateKey: rsaLeaf.privateKeyPkcs8Pem,
      certificateChain: [...rsaLeaf.chainDer],
      tokenEndpoint: udapTokenUrl,
    },
    { protocol: 'udap', fetch: server.fetch },
  )
}
