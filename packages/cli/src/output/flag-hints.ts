/**
 * Where a user fixes a library `ConfigurationError`, by its `invalidAttribute`: the library
 * names its own attributes (`clientId`, `trustedAnchors`), the CLI user knows flags. The hint is
 * appended to the error line, e.g. `error: clientId is required (set --client-id)`.
 */
export const defaultAttributeHints: Readonly<Record<string, string>> = Object.freeze({
  baseUrl: 'set --base-url',
  issuer: 'set --base-url',
  clientId: 'set --client-id',
  redirectUri: 'set --redirect-uri',
  scopes: 'set --scope',
  customScopes: 'set --scope',
  clientSecret: 'set --client-secret-env',
  privateKey: 'set --key or --pkcs12',
  certificateChain: 'set --cert or --pkcs12',
  kid: 'set --kid',
  trustedAnchors: 'set --trust-anchor',
  crls: 'set --crl',
  community: 'set --community',
  clientUri: 'set --client-uri',
  registrationEndpoint: 'set --registration-endpoint',
  authorization: 'set --authorization or --initial-access-token',
  launch: 'set --launch',
  nonce: 'set --nonce to the nonce --url-only printed',
  b2b: 'set --b2b-organization-id and --b2b-purpose-of-use',
  extensions: 'for hl7-b2b, set --b2b-organization-id and --b2b-purpose-of-use',
  metadata: 'in --metadata',
  client_name: 'in --metadata',
  contacts: 'in --metadata',
  scope: 'in --metadata',
  grant_types: 'in --metadata',
  redirect_uris: 'in --metadata',
  logo_uri: 'in --metadata',
})
