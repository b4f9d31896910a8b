import type { VerificationAlgorithm } from '@fhir-auth/core/essentials'

// Below the protocols' discovery, the SMART issuer binding and ID token validation, which all
// read them (ADR 0015).

/** Where ID tokens come from and how they are signed. */
export interface OpenIdProvider {
  readonly issuer: string
  readonly jwksUri: string
  readonly algorithms: readonly VerificationAlgorithm[]
}

/** What a protocol's discovery says of its OpenID provider (any member may be missing). */
export interface OpenIdProviderHint {
  readonly issuer: string | undefined
  readonly jwksUri: string | undefined
  /** `id_token_signing_alg_values_supported` as advertised (not yet checked). */
  readonly algorithms: unknown
}
