import type { SmartMetadata, UdapMetadata } from '@fhir-auth/client'
import { smartConfigurationUrl, validateSmartMetadata } from '@fhir-auth/smart'
import { udapDiscoveryUrl } from '@fhir-auth/udap'
import { checkProtocolOptions, type ParsedFlags, usageError } from '../args.js'
import { createClient } from '../client-factory.js'
import { readUdapTrust } from '../inputs/udap-trust.js'
import { type FieldRow, formatRows } from '../output/human-format.js'
import type { Command, CommandContext } from './command.js'
import { udapOption, udapTrustOptions } from './shared-options.js'

const options = [udapOption, ...udapTrustOptions]

/**
 * `fhir-auth discover <fhir-base>`: SMART discovery (`.well-known/smart-configuration`:
 * endpoints, capabilities, what the server supports), or with `--udap` trusted UDAP discovery
 * (`.well-known/udap` with `signed_metadata` verified against the given anchors and CRLs: the
 * signed endpoints and the server certificate).
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html
 */
export const discoverCommand: Command = {
  name: 'discover',
  summary: 'show a FHIR server’s SMART configuration or verified UDAP metadata',
  synopsis: [
    '<fhir-base>',
    '<fhir-base> --udap --trust-anchor <file>… [--crl <file>…] [--community <uri>]',
  ],
  positionals: [{ name: 'fhir-base', description: 'the FHIR base URL', isRequired: true }],
  options,
  notes: [
    'SMART: prints the endpoints, capabilities and what the server supports, and warns about every SMART 2.2.0 violation in the document. --json prints { protocol, baseUrl, discoveryUrl, endpoints, capabilities, supports, compliant, document }.',
    'UDAP: nothing is printed unless signed_metadata verifies (RS256, x5c chain to a trust anchor with current CRLs, iss = SAN = base URL). --json prints { protocol, baseUrl, community, discoveryUrl, tokenEndpoint, registrationEndpoint, authorizationEndpoint, serverCertificate, supports, raw, signedClaims }.',
  ],
  attributeHints: { baseUrl: 'check the <fhir-base> argument' },
  async execute(flags: ParsedFlags, context: CommandContext): Promise<void> {
    const protocol = flags.flag('udap') ? 'udap' : 'smart'
    checkProtocolOptions(flags, options, protocol)
    const [baseUrl] = flags.positionals
    if (baseUrl === undefined) throw usageError('--', 'the <fhir-base> argument is required')
    if (protocol === 'udap') await discoverUdap(baseUrl, flags, context)
    else await discoverSmart(baseUrl, context)
  },
}

async function discoverSmart(baseUrl: string, context: CommandContext): Promise<void> {
  const client = createClient(context, { baseUrl }, 'smart')
  context.output.progress(`discovering ${smartConfigurationUrl(baseUrl)}`)
  const metadata = await client.serverMetadata()
  const isCompliant = validateSmartMetadata(metadata, context.logger)
  const document = {
    protocol: 'smart',
    baseUrl,
    discoveryUrl: metadata.discoveryUrl,
    issuer: metadata.issuer,
    endpoints: smartEndpoints(metadata),
    capabilities: metadata.capabilities,
    supports: smartSupport(metadata),
    compliant: isCompliant,
    document: metadata.raw,
  }
  context.output.result(document, () => {
    const support = Object.entries(document.supports).map(
      ([name, isSupported]) => [name, isSupported] as const,
    )
    return [
      `SMART configuration of ${baseUrl}${isCompliant ? '' : ' (not compliant: see warnings)'}\n`,
      formatRows([
        ['discovery URL', metadata.discoveryUrl],
        ['issuer', metadata.issuer],
      ]),
      '\nEndpoints:\n',
      formatRows(Object.entries(document.endpoints)),
      `\nCapabilities (${metadata.capabilities.length}):\n`,
      formatRows([['', metadata.capabilities]], ''),
      '\nSupports:\n',
      formatRows(support),
      '\nAdvertised:\n',
      formatRows([
        ['grant types', metadata.grantTypesSupported],
        ['client authentication', metadata.tokenEndpointAuthMethodsSupported],
        ['assertion algorithms', metadata.tokenEndpointAuthSigningAlgValuesSupported],
        ['PKCE methods', metadata.codeChallengeMethodsSupported],
        ['scopes', metadata.scopesSupported],
      ]),
    ].join('')
  })
}

function smartEndpoints(metadata: SmartMetadata): Record<string, string | undefined> {
  return {
    authorization: metadata.authorizationEndpoint,
    token: metadata.tokenEndpoint,
    registration: metadata.registrationEndpoint,
    management: metadata.managementEndpoint,
    introspection: metadata.introspectionEndpoint,
    revocation: metadata.revocationEndpoint,
    jwks: metadata.jwksUri,
  }
}

function smartSupport(metadata: SmartMetadata): Record<string, boolean> {
  return {
    ehrLaunch: metadata.supportsEhrLaunch(),
    standaloneLaunch: metadata.supportsStandaloneLaunch(),
    postAuthorization: metadata.supportsPostAuthorization(),
    publicClients: metadata.supportsPublicAuth(),
    symmetricClients: metadata.supportsSymmetricAuth(),
    asymmetricClients: metadata.supportsAsymmetricAuth(),
    backendServices: metadata.supportsBackendServices(),
    dynamicRegistration: metadata.supportsDynamicRegistration(),
    openIdConnect: metadata.supportsOpenIdConnect(),
    pkceS256: metadata.supportsPkceS256(),
  }
}

async function discoverUdap(
  baseUrl: string,
  flags: ParsedFlags,
  context: CommandContext,
): Promise<void> {
  const trust = await readUdapTrust(flags)
  const client = createClient(context, { baseUrl }, 'udap')
  const discoveryUrl = udapDiscoveryUrl(baseUrl, trust.community)
  context.output.progress(`discovering and verifying ${discoveryUrl}`)
  const metadata = await client.serverMetadata(trust)
  const certificate = metadata.serverCertificate
  const document = {
    protocol: 'udap',
    baseUrl,
    community: trust.community,
    discoveryUrl,
    ...metadata.toJSON(),
    supports: udapSupport(metadata),
  }
  context.output.result(document, () => {
    const rows: FieldRow[] = [
      ['versions', metadata.udapVersionsSupported],
      ['profiles', metadata.udapProfilesSupported],
      ['grant types', metadata.grantTypesSupported],
      ['scopes', metadata.scopesSupported],
      ['extensions supported', metadata.udapAuthorizationExtensionsSupported],
      ['extensions required', metadata.udapAuthorizationExtensionsRequired],
      ['certifications required', metadata.udapCertificationsRequired],
      ['token signing algorithms', metadata.tokenEndpointAuthSigningAlgValuesSupported],
      [
        'registration signing algorithms',
        metadata.registrationEndpointJwtSigningAlgValuesSupported,
      ],
    ]
    return [
      `UDAP metadata of ${baseUrl} (signed_metadata verified)\n`,
      formatRows([
        ['discovery URL', discoveryUrl],
        ['community', trust.community ?? '(default)'],
      ]),
      '\nSigned endpoints:\n',
      formatRows([
        ['token', metadata.tokenEndpoint],
        ['registration', metadata.registrationEndpoint],
        ['authorization', metadata.authorizationEndpoint],
      ]),
      '\nServer certificate:\n',
      formatRows([
        ['subject', certificate.subject],
        ['issuer', certificate.issuer],
        ['SAN URIs', certificate.subjectAltNameUris],
        ['serial number', certificate.serialNumber],
        [
          'valid',
          `${certificate.notBefore.toISOString()} to ${certificate.notAfter.toISOString()}`,
        ],
      ]),
      '\nAdvertised:\n',
      formatRows(rows),
    ].join('')
  })
}

function udapSupport(metadata: UdapMetadata): Record<string, boolean> {
  return {
    clientCredentials: metadata.supportsClientCredentials(),
    authorizationCode: metadata.supportsAuthorizationCode(),
    refreshToken: metadata.supportsRefreshToken(),
    registration: metadata.supportsRegistration(),
    b2bExtension: metadata.supportsB2bExtension(),
    b2bExtensionRequired: metadata.requiresB2bExtension(),
    tieredOAuth: metadata.supportsTieredOAuth(),
  }
}
