/**
 * How values appear in the transcript: secrets as length and fingerprint, JWTs decoded
 * (header and claims, never the signature), everything else as compact JSON.
 */
import { createHash, X509Certificate } from 'node:crypto'
import { base64Decode, isSensitiveName, looksLikeJwt, redacted } from '@fhir-auth/core'
import { decodeCompactJws } from '@fhir-auth/core/jws'

/** Long enough to tell two tokens apart at a glance, far too short to help anyone guess one. */
const fingerprintLength = 6
/** Compact JSON longer than this is cut with an ellipsis. */
export const maximumValueLength = 96

/**
 * A short SHA-256 fingerprint: shows that two secrets differ (a rotated refresh token) or are
 * the same, without showing either.
 */
export function fingerprint(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, fingerprintLength)
}

/** `[REDACTED] 43 chars #1a2b3c`: a secret's shape, never its value. */
export function secretSummary(value: string): string {
  return `[REDACTED] ${value.length} chars #${fingerprint(value)}`
}

/** A compact JWS split for display: header and claims with `x5c` named, signature omitted. */
export interface JwtDisplay {
  readonly header: Record<string, unknown>
  readonly claims: Record<string, unknown>
}

/**
 * Decodes a compact JWS for display. `x5c` certificates are replaced by their subjects, since
 * base64 DER says nothing to a reader. Returns `undefined` for anything that does not decode.
 */
export function describeJwt(jwt: string): JwtDisplay | undefined {
  try {
    const { header, payload } = decodeCompactJws(jwt)
    const shownHeader = { ...header }
    if (Array.isArray(header.x5c)) shownHeader.x5c = header.x5c.map(describeCertificate)
    return { header: shownHeader, claims: { ...payload } }
  } catch {
    return undefined
  }
}

/**
 * `subject (SAN uri, …)` of a base64 DER certificate (an `x5c` entry), or a placeholder when
 * it does not parse.
 */
export function describeCertificate(entry: unknown): string {
  if (typeof entry !== 'string') return '[not a certificate]'
  const der = base64Decode(entry)
  if (der === undefined) return '[not base64]'
  try {
    return describeX509(new X509Certificate(der))
  } catch {
    return '[unreadable certificate]'
  }
}

/** `CN=…` plus the URI SANs of a parsed certificate. */
export function describeX509(certificate: X509Certificate): string {
  const commonName = certificate.subject
    .split('\n')
    .find((part) => part.startsWith('CN='))
    ?.trim()
  const uris = (certificate.subjectAltName ?? '')
    .split(', ')
    .filter((name) => name.startsWith('URI:'))
    .map((name) => name.slice('URI:'.length))
  const subject = commonName ?? certificate.subject.replace(/\n/g, ', ')
  return uris.length === 0 ? subject : `${subject} (SAN ${uris.join(', ')})`
}

/** The `CN=…` part of an RFC 4514 distinguished name, or the whole name when it has none. */
export function commonNameOf(distinguishedName: string): string {
  const commonName = distinguishedName.split(',').find((part) => part.trim().startsWith('CN='))
  return commonName?.trim() ?? distinguishedName
}

/**
 * The display form of one named value (a form parameter, a JSON member, a header): secrets by
 * name or JWT shape are summarised, the rest is compact JSON, cut at {@link maximumValueLength}.
 */
export function displayValue(name: string, value: unknown): string {
  if (value === redacted) return redacted
  if (typeof value === 'string' && looksLikeJwt(value)) return `${secretSummary(value)} (JWT)`
  if (isSensitiveName(name) && value !== undefined && value !== null) {
    return typeof value === 'string' ? secretSummary(value) : '[REDACTED]'
  }
  return compactJson(value)
}

/** Strings as they are, lists of strings space-separated, the rest as JSON; long text cut. */
export function compactJson(value: unknown): string {
  let text: string
  if (typeof value === 'string') text = value
  else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    text = value.length === 0 ? '[]' : value.join(' ')
  } else text = JSON.stringify(value) ?? String(value)
  return text.length > maximumValueLength ? `${text.slice(0, maximumValueLength - 1)}…` : text
}
