import type { KeyDescription } from '@fhir-auth/core/essentials'

// Apart from `import-signer.ts`: the PEM reader, which that module loads on demand, makes it too,
// and imports nothing of its loader (ADR 0015).

/** Private key material read from a JWK or from PEM, with what decides its algorithms. */
export type KeyMaterial =
  | { readonly format: 'jwk'; readonly keyData: JsonWebKey; readonly description: KeyDescription }
  | { readonly format: 'pkcs8'; readonly keyData: Uint8Array; readonly description: KeyDescription }
