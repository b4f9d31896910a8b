import type { SmartMetadata } from '@fhir-auth/smart'
import { validateSmartMetadata } from '@fhir-auth/smart'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import type { UdapMetadata } from '@fhir-auth/udap'

/**
 * Reads every accessor, predicate and serialisation of a `SmartMetadata`, the way an
 * application would after discovery. The class promises that none of them throws, whatever
 * the document held.
 */
export function readSmartMetadata(metadata: SmartMetadata): unknown[] {
  return [
    metadata.raw,
    metadata.discoveryUrl,
    metadata.issuer,
    metadata.jwksUri,
    metadata.authorizationEndpoint,
    metadata.tokenEndpoint,
    metadata.registrationEndpoint,
    metadata.managementEndpoint,
    metadata.introspectionEndpoint,
    metadata.revocationEndpoint,
    metadata.userAccessBrandBundle,
    metadata.userAccessBrandIdentifier,
    metadata.grantTypesSupported,
    metadata.scopesSupported,
    metadata.responseTypesSupported,
    metadata.codeChallengeMethodsSupported,
    metadata.tokenEndpointAuthMethodsSupported,
    metadata.tokenEndpointAuthSigningAlgValuesSupported,
    metadata.capabilities,
    metadata.associatedEndpoints,
    metadata.supportsSymmetricAuth(),
    metadata.supportsAsymmetricAuth(),
    metadata.supportsPublicAuth(),
    metadata.supportsPostAuthorization(),
    metadata.supportsEhrLaunch(),
    metadata.supportsStandaloneLaunch(),
    metadata.supportsBackendServices(),
    metadata.supportsDynamicRegistration(),
    metadata.supportsOpenIdConnect(),
    metadata.supportsPkceS256(),
    validateSmartMetadata(metadata, createCapturingLogger()),
    metadata.toJSON(),
  ]
}

/** Reads every accessor and predicate of a `UdapMetadata`; none may throw. */
export function readUdapMetadata(metadata: UdapMetadata): unknown[] {
  const values: unknown[] = [metadata.raw, metadata.signedClaims, metadata.serverCertificate]
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(metadata))) {
    if (name === 'constructor') continue
    const descriptor = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(metadata), name)
    if (descriptor?.get !== undefined) values.push(descriptor.get.call(metadata))
    else if (typeof descriptor?.value === 'function' && descriptor.value.length === 0) {
      values.push(descriptor.value.call(metadata))
    }
  }
  return values
}
