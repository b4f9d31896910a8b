/**
 * UDAP trusted discovery as the transcript shows it (sandbox and real server alike): the trust
 * inputs, the request, the document with its decoded `signed_metadata`, and what the library
 * verified before returning.
 */
import { X509Certificate } from 'node:crypto'
import type { Client, UdapMetadata, UdapTrustOptions } from '@fhir-auth/client'
import type { DemoContext } from '../demo-context.js'
import { commonNameOf, describeX509 } from '../display-values.js'

const shownFields = [
  'udap_versions_supported',
  'udap_profiles_supported',
  'udap_authorization_extensions_required',
  'grant_types_supported',
  'scopes_supported',
  'token_endpoint_auth_signing_alg_values_supported',
  'signed_metadata',
]

/** The code line for a trusted discovery call. */
export const udapDiscoveryCall = 'client.serverMetadata({ trustedAnchors, crls })'

/**
 * Shows the trust inputs, runs trusted discovery and lists what was verified.
 *
 * @throws DiscoveryError when anything about `signed_metadata` fails (the library fails closed).
 */
export async function showUdapDiscovery(
  context: DemoContext,
  client: Client,
  trust: UdapTrustOptions,
): Promise<UdapMetadata> {
  const { transcript } = context
  transcript.note('trust inputs: the anchors this client trusts and a current CRL for every CA')
  transcript.rows(
    [
      { name: 'trustedAnchors', value: trust.trustedAnchors.map(describeAnchor).join('; ') },
      { name: 'crls', value: `${trust.crls?.length ?? 0} CRL(s)` },
    ],
    1,
  )
  const metadata = await context.call(udapDiscoveryCall, () => client.serverMetadata(trust), {
    responseFields: shownFields,
  })
  const certificate = metadata.serverCertificate
  const baseUrl = client.config.baseUrl ?? ''
  transcript.ok(
    `signed_metadata verified: RS256 signature by x5c[0] ${commonNameOf(certificate.subject)}`,
  )
  transcript.ok(
    `chain: x5c[0] › ${commonNameOf(certificate.issuer)} › a trusted anchor, none revoked (CRLs checked)`,
  )
  transcript.ok(
    `iss = sub = the base URL ${baseUrl}, a URI SAN of x5c[0]; exp ≤ iat + 1 year; jti present`,
  )
  transcript.ok(
    `endpoints taken from the signed claims: token ${metadata.tokenEndpoint}, registration ${metadata.registrationEndpoint}`,
  )
  return metadata
}

function describeAnchor(anchor: unknown): string {
  if (typeof anchor !== 'string' && !(anchor instanceof Uint8Array)) return 'a certificate object'
  try {
    return describeX509(new X509Certificate(anchor))
  } catch {
    return 'an unreadable certificate'
  }
}
