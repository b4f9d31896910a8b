import { createPublicKey, type KeyObject, randomUUID } from 'node:crypto'
import { CompactSign } from 'jose'
import type { SigningMaterial } from './community-pki.js'
import type { HostileDiscoveryVariant } from './hostile-variants.js'
import { toBase64 } from './pki-object.js'
import type { AdvertisedEndpoints } from './udap-metadata.js'

/** Default lifetime of conformant signed metadata: one hour (the IG allows up to one year). */
export const defaultSignedMetadataLifetimeSeconds = 3600
/** The longest lifetime a client accepts: one year, leap day included (366 days). */
const longestLifetimeSeconds = 366 * 86_400

/** Inputs of {@link signMetadata}. */
export interface SignedMetadataInput {
  /** `iss` and `sub` of conformant metadata: the FHIR base URL. */
  readonly issuer: string
  readonly endpoints: AdvertisedEndpoints
  readonly now: Date
  /** `exp − iat` of conformant metadata, in seconds. */
  readonly lifetimeSeconds: number
  /** The certificate and key that sign (already the variant's certificate, if any). */
  readonly material: SigningMaterial
  readonly variant: HostileDiscoveryVariant | undefined
  /** For `iss-differs-from-base-url`: the URL the signing certificate's SAN carries. */
  readonly otherUrl: string
  /** For `wrong-signing-key`: an RSA key that belongs to no certificate in `x5c`. */
  readonly foreignKey: () => Promise<KeyObject>
  /** Metadata values signed besides the endpoints (IG STU2 §2.3 lets a server sign any). */
  readonly signedValues?: Readonly<Record<string, unknown>> | undefined
}

/**
 * The `signed_metadata` JWT of IG STU2 §2.3: header `alg: RS256` and `x5c` (leaf, intermediate),
 * claims `iss = sub =` base URL, `iat`, `exp = iat +` the lifetime (1 h unless configured), `jti`,
 * and the endpoints. A hostile
 * variant changes exactly the one thing it names.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
 */
export async function signMetadata(input: SignedMetadataInput): Promise<string> {
  const { variant, material } = input
  const claims = metadataClaims(input)
  const leafChain = material.chainDer.map(toBase64)
  const x5c =
    variant === 'x5c-out-of-order' ? [...leafChain.slice(1), ...leafChain.slice(0, 1)] : leafChain
  const payload = new TextEncoder().encode(JSON.stringify(claims))
  switch (variant) {
    case 'alg-none':
      return `${base64Url(JSON.stringify({ alg: 'none', x5c }))}.${base64Url(payload)}.`
    case 'alg-hs256': {
      // The confusion attack: an HMAC keyed with the public key a naive verifier would use.
      const publicKeyPem = createPublicKey(material.certificate.keyPair.privateKey)
        .export({ format: 'pem', type: 'spki' })
        .toString()
      return new CompactSign(payload)
        .setProtectedHeader({ alg: 'HS256', x5c })
        .sign(new TextEncoder().encode(publicKeyPem))
    }
    case 'alg-rs384':
      return new CompactSign(payload)
        .setProtectedHeader({ alg: 'RS384', x5c })
        .sign(material.certificate.keyPair.privateKey)
    case 'wrong-signing-key':
      return new CompactSign(payload)
        .setProtectedHeader({ alg: 'RS256', x5c })
        .sign(await input.foreignKey())
    default:
      return new CompactSign(payload)
        .setProtectedHeader({ alg: 'RS256', x5c })
        .sign(material.certificate.keyPair.privateKey)
  }
}

function metadataClaims(input: SignedMetadataInput): Record<string, unknown> {
  const iat = Math.floor(input.now.getTime() / 1000)
  const issuer = input.variant === 'iss-differs-from-base-url' ? input.otherUrl : input.issuer
  const claims: Record<string, unknown> = {
    iss: issuer,
    sub: input.variant === 'sub-differs' ? `${issuer}/another-subject` : issuer,
    iat,
    exp: iat + input.lifetimeSeconds,
    jti: randomUUID(),
    ...input.signedValues,
    token_endpoint: input.endpoints.token,
    registration_endpoint: input.endpoints.registration,
    ...(input.endpoints.authorization === undefined
      ? {}
      : { authorization_endpoint: input.endpoints.authorization }),
  }
  switch (input.variant) {
    case 'exp-beyond-one-year':
      // One second past the longest year, so that it breaks the rule by the smallest step.
      claims.exp = iat + longestLifetimeSeconds + 1
      break
    case 'exp-in-past':
      claims.iat = iat - 7200
      claims.exp = iat - 3600
      break
    case 'missing-jti':
      delete claims.jti
      break
    default:
      break
  }
  return claims
}

function base64Url(data: string | Uint8Array): string {
  return Buffer.from(data).toString('base64url')
}
