import type { JsonRecord, Logger, TransportOptions } from '@fhir-auth/core/essentials'
import type { SmartMetadata } from '@fhir-auth/smart/launch'
import type { IssuerBinding, KnownServer } from '../smart/issuer-binding.js'

/**
 * What a diagnosis uses of the SMART protocol's own code, handed over by its implementation
 * rather than imported: the diagnosis is a chunk of its own, and importing these would move them
 * out of the protocol's chunk into one more shared chunk every SMART app loads (ADR 0012).
 *
 * @internal
 */
export interface DiagnosticServerAccess {
  /** `discoverSmartConfiguration`: the library's own discovery, tolerances and all. */
  discover(baseUrl: string, transport: TransportOptions): Promise<SmartMetadata>
  /** `bindSmartIssuer` (ADR 0013). */
  bindIssuer(
    issuer: string,
    metadata: SmartMetadata,
    known: KnownServer,
    transport: TransportOptions,
  ): Promise<IssuerBinding>
  /** The warnings a client logs for relative endpoint URLs. */
  noteRelativeEndpoints(metadata: SmartMetadata, logger: Logger): Promise<void>
  /** GETs a JSON object under the transport policy (a `DiscoveryError` otherwise). */
  fetchJsonObject(url: string, label: string, transport: TransportOptions): Promise<JsonRecord>
}
