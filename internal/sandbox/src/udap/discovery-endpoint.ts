import type { KeyObject } from 'node:crypto'
import type { CommunityPki, SigningMaterial } from './community-pki.js'
import {
  type CertificateVariant,
  discoveryVariantOf,
  type HostileVariant,
  isCertificateVariant,
} from './hostile-variants.js'
import { signMetadata } from './signed-metadata.js'
import {
  type AdvertisedCapabilities,
  type AdvertisedEndpoints,
  buildUdapMetadata,
} from './udap-metadata.js'

/** What the discovery endpoint needs from the sandbox. */
export interface DiscoveryContext {
  readonly fhirBaseUrl: string
  readonly capabilities: AdvertisedCapabilities
  readonly endpoints: AdvertisedEndpoints
  /** The endpoints the `http-endpoints` variant advertises instead. */
  readonly plainHttpEndpoints: AdvertisedEndpoints
  /** The unsigned `authorization_endpoint` of the `unsigned-authorization-endpoint` variant. */
  readonly unsignedAuthorizationEndpoint: string
  readonly defaultCommunity: CommunityPki
  /** Every recognised community by URI, the default one included. */
  readonly communities: ReadonlyMap<string, CommunityPki>
  readonly hostileCertificates: Readonly<Record<CertificateVariant, SigningMaterial>>
  /** The SAN of the `san-other-url` / `iss-differs-from-base-url` certificate. */
  readonly otherUrl: string
  readonly hostile: () => HostileVariant | undefined
  readonly foreignKey: () => Promise<KeyObject>
  readonly now: () => Date
  /** `exp − iat` of conformant signed metadata. */
  readonly signedMetadataLifetimeSeconds: number
  /** Where `authorization_response_iss_parameter_supported: true` is advertised, if anywhere. */
  readonly authorizationResponseIss: 'signed' | 'unsigned' | undefined
}

/** A discovery answer: metadata, or 204 for a community the server does not recognise. */
export type DiscoveryAnswer =
  | { readonly status: 200; readonly body: Record<string, unknown> }
  | { readonly status: 204 }

/**
 * Answers `GET {base}/.well-known/udap`. Without `community`, or with the default community's
 * URI, the metadata is signed with the default community's server certificate; with another
 * recognised community, with that community's certificate; with an unknown one, 204 (IG STU2
 * §2.4). The active hostile variant, if any, applies to every community (certificate variants
 * always use certificates of the default community).
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#multiple-trust-communities
 */
export async function processDiscovery(
  query: URLSearchParams,
  context: DiscoveryContext,
): Promise<DiscoveryAnswer> {
  const requested = query.get('community')
  const community =
    requested === null ? context.defaultCommunity : context.communities.get(requested)
  if (community === undefined) return { status: 204 }
  const active = context.hostile()
  const variant = discoveryVariantOf(active)
  const material =
    variant !== undefined && isCertificateVariant(variant)
      ? context.hostileCertificates[variant]
      : community.server
  const endpoints = variant === 'http-endpoints' ? context.plainHttpEndpoints : context.endpoints
  const signedMetadata = await signMetadata({
    issuer: context.fhirBaseUrl,
    endpoints,
    now: context.now(),
    lifetimeSeconds: context.signedMetadataLifetimeSeconds,
    material,
    variant,
    otherUrl: context.otherUrl,
    foreignKey: context.foreignKey,
    signedValues: {
      ...(active === 'signed-scopes-without-udap'
        ? {
            scopes_supported: context.capabilities.scopesSupported.filter(
              (scope) => scope !== 'udap',
            ),
          }
        : {}),
      ...(context.authorizationResponseIss === 'signed' ? issParameterSupported : {}),
    },
  })
  // The signed claims stay right; only the plain JSON lies (IG STU2 §2.3: signed values win).
  const unsigned =
    active === 'unsigned-authorization-endpoint' && endpoints.authorization !== undefined
      ? { ...endpoints, authorization: context.unsignedAuthorizationEndpoint }
      : endpoints
  const body = buildUdapMetadata(context.capabilities, unsigned, signedMetadata)
  return {
    status: 200,
    body:
      context.authorizationResponseIss === 'unsigned'
        ? { ...issParameterSupported, ...body }
        : body,
  }
}

/** RFC 9207 §3: the server always sends `iss` in its authorization responses. */
const issParameterSupported = { authorization_response_iss_parameter_supported: true } as const
