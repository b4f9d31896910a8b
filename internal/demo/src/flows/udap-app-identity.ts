/**
 * What the authorization-code sections share: a certificate for an app (or a data holder) from
 * a sandbox's CA, its key in the ledger first, and a UDAP client configured with it.
 */
import type { Client, UdapFlow } from '@fhir-auth/client'
import type { UdapSandbox } from '@fhir-auth/sandbox'
import type { KeyType } from '@fhir-auth/test-pki/issuer'
import type { DemoContext } from '../demo-context.js'

/** What a section's client is: who it is, at which server, asking for what. */
export interface AppIdentity {
  /** The client URI: the certificate's SAN and the software statement's `iss`. */
  readonly clientUri: string
  readonly commonName: string
  readonly keyType: KeyType
  readonly flow: UdapFlow
  readonly redirectUri: string
  readonly scopes: readonly string[]
}

/**
 * Issues the certificate (EC keys: fast), adds its key to the ledger, and creates the client
 * (shown in the transcript).
 */
export async function createAppClient(
  context: DemoContext,
  sandbox: UdapSandbox,
  identity: AppIdentity,
): Promise<Client> {
  const certificate = await sandbox.certificateAuthority.issue({
    commonName: identity.commonName,
    sanUris: [identity.clientUri],
    keyType: identity.keyType,
  })
  context.ledger.addPrivateKeyPem(`${identity.commonName} key`, certificate.privateKeyPem)
  return context.createClient(
    {
      baseUrl: sandbox.fhirBaseUrl,
      redirectUri: identity.redirectUri,
      scopes: [...identity.scopes],
      privateKey: certificate.privateKeyPem,
      certificateChain: certificate.chainDer,
      allowInsecureLocalhost: true,
    },
    { protocol: 'udap', flow: identity.flow },
  )
}

/** The registration metadata of an authorization-code client (STU2 §3). */
export function codeRegistrationMetadata(
  clientName: string,
  identity: AppIdentity,
  scope: string,
  grantTypes: readonly string[],
): Readonly<Record<string, unknown>> {
  return {
    client_name: clientName,
    contacts: ['mailto:demo@example.test'],
    grant_types: grantTypes,
    redirect_uris: [identity.redirectUri],
    logo_uri: 'https://demo-app.example.test/logo.png',
    scope,
  }
}

/** The registration response members the sections show. */
export const codeRegistrationFields = [
  'client_id',
  'grant_types',
  'response_types',
  'redirect_uris',
  'scope',
]

/** The token response members the sections show. */
export const codeTokenFields = [
  'access_token',
  'refresh_token',
  'id_token',
  'token_type',
  'expires_in',
  'scope',
]
