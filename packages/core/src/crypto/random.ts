import { base64UrlEncode } from './base64.js'

/** Random bytes from the platform CSPRNG (`globalThis.crypto`, present in Node 20+, browsers, edge). */
export function randomBytes(length: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(length))
}

/**
 * A fresh OAuth `state` value: 256 bits from the CSPRNG as 43 base64url characters. SMART asks
 * for at least 122 bits of unpredictable entropy.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#request-authorization
 */
export function generateState(): string {
  return base64UrlEncode(randomBytes(32))
}

/** A fresh JWT `jti`: 256 bits from the CSPRNG as 43 base64url characters. */
export function generateJti(): string {
  return base64UrlEncode(randomBytes(32))
}
