import type { BasicAuthEncoding, JwsSigner } from '@fhir-auth/core/essentials'

// Apart from `client-authentication.ts`: the code for each kind, which that module loads on
// demand, reads them too, and imports nothing of its loader (ADR 0015).

/**
 * How a SMART client authenticates at the token endpoint, one variant per client type.
 *
 * - `public`: no authentication; `client_id` goes in the form body;
 * - `confidential_symmetric`: HTTP Basic with the client id and secret (RFC 6749 §2.3.1);
 * - `confidential_asymmetric`: `private_key_jwt`, a fresh signed assertion per request.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-symmetric.html
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-asymmetric.html
 */
export type ClientAuthentication =
  | { readonly type: 'public'; readonly clientId: string }
  | {
      readonly type: 'confidential_symmetric'
      readonly clientId: string
      readonly clientSecret: string
      /**
       * How id and secret are written in the Basic credentials: `'form-urlencoded'` (default,
       * RFC 6749 §2.3.1) or `'raw'` (`base64(id:secret)`, as the SMART IG example shows).
       */
      readonly basicAuthEncoding?: BasicAuthEncoding | undefined
    }
  | {
      readonly type: 'confidential_asymmetric'
      readonly clientId: string
      readonly signer: JwsSigner
      /** Becomes the assertion's `jku` header; must be the JWKS URL registered for the client. */
      readonly jwksUri?: string | undefined
    }

/** The form members and headers that authenticate one token request. @internal */
export interface AuthenticationParts {
  readonly form: Record<string, string>
  readonly headers: Record<string, string>
  /** Values to keep out of error messages built from the server's answer. */
  readonly secrets: string[]
}
