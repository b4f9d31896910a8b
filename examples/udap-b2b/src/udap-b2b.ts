import { readFile } from 'node:fs/promises'
import {
  type B2bAuthorizationExtension,
  type BackendTokens,
  Client,
  type ClientOptions,
  ConfigurationError,
  loadPkcs12,
  type UdapTrustOptions,
} from '@fhir-auth/client'
import { readPemOrDer, type UdapB2bSettings } from './settings.js'

/**
 * Opens the client's PKCS#12 file and builds a UDAP `Client` from it: the key signs, the
 * certificate chain (leaf first) goes into every JWT's `x5c` header.
 *
 * @throws CryptoError `pkcs12-password` (the password never appears in it) or `pkcs12-invalid`.
 * @see https://hl7.org/fhir/us/udap-security/STU2/general.html
 */
export async function createUdapClient(
  settings: UdapB2bSettings,
  options: Omit<ClientOptions, 'protocol'> = {},
): Promise<Client> {
  const { privateKey, certificateChain } = await loadPkcs12(
    await readFile(settings.pkcs12File),
    settings.pkcs12Password,
  )
  return new Client(
    {
      baseUrl: settings.fhirBaseUrl,
      clientId: settings.clientId,
      privateKey,
      certificateChain,
      scopes: [...settings.scopes],
      allowInsecureLocalhost: settings.allowInsecureLocalhost,
    },
    { ...options, protocol: 'udap' },
  )
}

/**
 * The trust inputs every UDAP call that touches discovery takes. The client believes the
 * server's signed metadata only if its certificate chains to one of these anchors and no
 * certificate in the chain is revoked; there is no default trust store.
 */
export async function readTrust(settings: UdapB2bSettings): Promise<UdapTrustOptions> {
  if (settings.trustAnchorFiles.length === 0) {
    throw new ConfigurationError({ invalidAttribute: 'TRUST_ANCHOR_FILES' })
  }
  return {
    trustedAnchors: await Promise.all(settings.trustAnchorFiles.map(readPemOrDer)),
    crls: await Promise.all(settings.crlFiles.map(readPemOrDer)),
  }
}

/**
 * Registers this client (UDAP dynamic client registration with a signed software statement)
 * and returns the `client_id`. Registering again with the same client URI updates the
 * registration and keeps the `client_id`, so store it and register only when metadata changes.
 *
 * @throws DiscoveryError when the server's metadata is not trusted (nothing is sent then),
 *   RegistrationError when the server refuses the statement.
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html
 */
export async function registerB2bClient(
  client: Client,
  settings: UdapB2bSettings,
  trust: UdapTrustOptions,
): Promise<string> {
  const registration = await client.registerClient(
    {
      client_name: settings.clientName,
      contacts: [settings.contact],
      // B2B without a user: client_credentials only, the one grant this client asks for.
      grant_types: ['client_credentials'],
      scope: settings.scopes.join(' '),
    },
    { clientUri: settings.clientUri, ...trust },
  )
  return registration.client_id
}

/**
 * Access tokens for one `hl7-b2b` context, reused until shortly before they expire: the first
 * call signs a UDAP authentication token (`x5c`, `iss = sub = client_id`) carrying the
 * extension — which organization asks, and for what purpose — and posts it with the
 * client-credentials grant; later calls get the same token, and concurrent calls share one
 * request. A token may only be used in the context it was asked for, so every context (another
 * organization, another purpose of use) has tokens of its own.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#b2b-authorization-extension-object
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/backend-services-at-scale.md
 */
export function b2bTokens(
  client: Client,
  settings: UdapB2bSettings,
  trust: UdapTrustOptions,
): BackendTokens {
  const b2b: B2bAuthorizationExtension = {
    organizationId: settings.organizationId,
    organizationName: settings.organizationName,
    purposeOfUse: settings.purposeOfUse,
  }
  return client.backendTokens({ b2b, ...trust })
}
