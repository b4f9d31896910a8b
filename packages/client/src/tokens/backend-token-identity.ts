import { sha256Base64Url } from '@fhir-auth/core/internal'

/**
 * What makes two backend token requests interchangeable: the same token endpoint, client, set
 * of scopes and — for UDAP — the same `hl7-b2b` context. An access token may only be used in the
 * context it was asked for (UDAP STU2 §5.2.1.1), so every member of that context counts.
 *
 * @see https://hl7.org/fhir/us/udap-security/b2b.html#b2b-authorization-extension-object UDAP B2B extension
 */
export interface BackendTokenIdentity {
  readonly tokenEndpoint: string
  readonly clientId: string
  readonly scopes: readonly string[]
  /** The `hl7-b2b` extension object, or `undefined` (SMART, or UDAP without one). */
  readonly context?: unknown
}

/**
 * The cache id of an identity: SHA-256 over a canonical JSON form (object keys sorted, scopes as
 * a sorted set), so the same request made in another order or another process finds the same
 * entry, and no client id or context detail appears in a store key.
 *
 * @internal
 */
export function backendTokenCacheId(identity: BackendTokenIdentity): Promise<string> {
  const scopes = [...new Set(identity.scopes)].sort()
  return sha256Base64Url(
    canonicalJson({
      tokenEndpoint: identity.tokenEndpoint,
      clientId: identity.clientId,
      scopes,
      context: identity.context ?? null,
    }),
  )
}

/** JSON with object keys in sorted order at every depth; `undefined` members are dropped. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const members = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      )
    return `{${members.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
