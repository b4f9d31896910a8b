/**
 * What the authorization-code sections share: a certificate for an app (or a data holder) from
 * a sandbox's CA, its key in the ledger first, and a UDAP client configured with it.
 */
import type { Client, RegistrationResponse, UdapFlow } from '@fhir-auth/client'
import type { UdapSandbox } from '@fhir-auth/sandbox'
import type { KeyType } from '@fhir-auth/test-pki/issuer'
import type { DemoContext } from '../demo-context.js'
import { trustOptionsOf } from '../sandbox-world.js'

/** What a section's client is: who it is, at which server, asking for what. */
export interface AppIdentity {
  /** The client URI: the certificate's SAN and the software statement's `iss`. */
  readonly clientUri: string
  readonly commonName: string
  readonly keyType: KeyType
  readonly flow: UdapFlow
  readonly redirectUri: string
  readonly scopes: readonly string[]
  /** The software statement's `scope`. */
  readonly registeredScope: string
  readonly grantTypes: readonly string[]
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

/** The registration response members the sections show. */
const codeRegistrationFields = [
  'client_id',
  'grant_types',
  'response_types',
  'redirect_uris',
  'scope',
]

/**
 * Registers the client for the authorization code (STU2 §3: redirect URI and logo required;
 * the library sets `response_types`) with `sandbox`'s trust inputs, shown as `code`.
 */
export function registerApp(
  context: DemoContext,
  sandbox: UdapSandbox,
  client: Client,
  identity: AppIdentity,
  code = 'client.registerClient(metadata, { clientUri, trustedAnchors, crls })',
): Promise<RegistrationResponse> {
  const metadata = {
    client_name: identity.commonName,
    contacts: ['mailto:demo@example.test'],
    grant_types: identity.grantTypes,
    redirect_uris: [identity.redirectUri],
    logo_uri: 'https://demo-app.example.test/logo.png',
    scope: identity.registeredScope,
  }
  return context.call(
    code,
    () =>
      client.registerClient(metadata, {
        clientUri: identity.clientUri,
        ...trustOptionsOf(sandbox.trust),
      }),
    { responseFields: codeRegistrationFields },
  )
}
