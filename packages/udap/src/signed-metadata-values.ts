import {
  type ParsedUdapMetadata,
  type ParseUdapMetadataOptions,
  readUdapMetadata,
  udapMetadataMembers,
} from './metadata-document.js'

/** What {@link applySignedMetadataValues} returns. */
export interface SignedMetadataValues extends ParsedUdapMetadata {
  /** Members whose signed value differs from the unsigned one (endpoints excluded). */
  readonly differing: readonly string[]
}

/** Endpoints: their precedence and their own warning belong to discovery already. */
const endpointMembers: ReadonlySet<string> = new Set([
  'authorization_endpoint',
  'token_endpoint',
  'registration_endpoint',
])

/**
 * The metadata document with the values of a verified `signed_metadata` in place: IG STU2 says
 * metadata values conveyed in the signed metadata SHALL take precedence over the plain JSON
 * ones, and that holds for every member the server chose to sign (algorithm lists, grant types,
 * required extensions…), not only the endpoints. The result is judged by the same structural
 * rules as the unsigned document; only problems the signed values brought are returned (the
 * unsigned ones were reported already).
 *
 * @param unsigned the document as received, already accepted by `parseUdapMetadata`.
 * @param parsed what `parseUdapMetadata` made of it.
 * @param claims the verified `signed_metadata` claims.
 * @throws DiscoveryError when a signed value makes the document unusable (its message names
 *   the signed metadata and the member).
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
 * @internal
 */
export function applySignedMetadataValues(
  unsigned: Readonly<Record<string, unknown>>,
  parsed: ParsedUdapMetadata,
  claims: Readonly<Record<string, unknown>>,
  options: ParseUdapMetadataOptions,
): SignedMetadataValues {
  const signedMembers = udapMetadataMembers.filter((name) => claims[name] !== undefined)
  const differing = signedMembers.filter(
    (name) =>
      !endpointMembers.has(name) &&
      unsigned[name] !== undefined &&
      JSON.stringify(unsigned[name]) !== JSON.stringify(claims[name]),
  )
  if (signedMembers.every((name) => endpointMembers.has(name))) {
    return { document: parsed.document, problems: [], differing }
  }
  const merged: Record<string, unknown> = { ...unsigned }
  for (const name of signedMembers) merged[name] = claims[name]
  const result = readUdapMetadata(merged, options, `the signed_metadata from ${options.endpoint}`)
  return {
    document: result.document,
    problems: result.problems.filter((problem) => !parsed.problems.includes(problem)),
    differing,
  }
}
