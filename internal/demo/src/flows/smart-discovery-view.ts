/**
 * SMART discovery as the transcript shows it, for the sandbox and for a real server alike:
 * the request, the document's main fields, its capabilities, the library's predicates and the
 * document's compliance with SMART 2.2.0.
 */
import type { Client, SmartMetadata } from '@fhir-auth/client'
import { validateSmartMetadata } from '@fhir-auth/smart'
import type { DemoContext } from '../demo-context.js'
import type { TranscriptRow } from '../transcript.js'
import { wrapList } from '../wrap-list.js'

const shownFields = [
  'issuer',
  'authorization_endpoint',
  'token_endpoint',
  'registration_endpoint',
  'jwks_uri',
  'grant_types_supported',
  'code_challenge_methods_supported',
  'token_endpoint_auth_methods_supported',
  'token_endpoint_auth_signing_alg_values_supported',
]

/** The `SmartMetadata` predicates a client decides with, in the order a reader meets them. */
const predicates = [
  'supportsPkceS256',
  'supportsStandaloneLaunch',
  'supportsEhrLaunch',
  'supportsPostAuthorization',
  'supportsPublicAuth',
  'supportsSymmetricAuth',
  'supportsAsymmetricAuth',
  'supportsBackendServices',
  'supportsDynamicRegistration',
  'supportsOpenIdConnect',
] as const

const listWidth = 88

/**
 * Fetches and shows the discovery document; reports SMART 2.2.0 violations as the library's
 * warnings.
 *
 * @returns the metadata and whether the document has no violation.
 * @throws DiscoveryError when the document cannot be fetched or is not a JSON object.
 */
export async function showSmartDiscovery(
  context: DemoContext,
  client: Client,
): Promise<{ readonly metadata: SmartMetadata; readonly compliant: boolean }> {
  const { transcript } = context
  const metadata = await context.call('client.serverMetadata()', () => client.serverMetadata(), {
    responseFields: shownFields,
  })
  const capabilities = metadata.capabilities
  transcript.rows(
    [
      listRow(`capabilities (${capabilities.length})`, capabilities),
      listRow(
        'predicates',
        predicates.map((name) =>
          metadata[name]()
            ? `${transcript.style.green('✔')} ${name}`
            : `${transcript.style.red('✘')} ${name}`,
        ),
      ),
    ],
    1,
  )
  const compliant = validateSmartMetadata(metadata, context.logger)
  if (compliant) transcript.ok('the document has every field SMART App Launch 2.2.0 requires')
  return { metadata, compliant }
}

function listRow(name: string, items: readonly string[]): TranscriptRow {
  const [first = '(none)', ...rest] = wrapList(items, listWidth)
  return { name, value: first, continuation: rest }
}
