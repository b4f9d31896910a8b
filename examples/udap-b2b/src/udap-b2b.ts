import { readFile } from 'node:fs/promises'
import {
  type B2bAuthorizationExtension,
  Client,
  type ClientOptions,
  ConfigurationError,
  loadPkcs12,
  type TokenResponse,
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
 * Gets an access token with the client-credentials grant: the library signs a UDAP
 * authentication token (`x5c`, `iss = sub = client_id`) carrying the `hl7-b2b` extension, which
 * tells the server for which organization and purpose the data is requested.
 *
 * @throws ConfigurationError `b2b` when the server requires the extension and none is given;
 *   TokenError when the server refuses.
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#b2b-authorization-extension-object
 */
export async function requestB2bToken(
  client: Client,
  settings: UdapB2bSettings,
  trust: UdapTrustOptions,
): Promise<TokenResponse> {
  const b2b: B2bAuthorizationExtension = {
    organizationId: settings.organizationId,
    organizationName: settings.organizationName,
    purposeOfUse: settings.purposeOfUse,
  }
  return client.requestBackendToken({ b2b, ...trust })
}
