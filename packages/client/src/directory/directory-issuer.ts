import { ConfigurationError, withoutUserInfo } from '@fhir-auth/core/essentials'
import { describeKind } from '@fhir-auth/core/internal/checks'

/** Longer than any FHIR base URL; a longer `iss` is refused before it is parsed or quoted. */
const maximumIssLength = 2048

/** How much of a refused `iss` an error quotes. */
const quotedIssLength = 200

/**
 * The key a directory finds a client by: the FHIR base URL with one trailing `/` removed. A
 * client's `config.baseUrl` is kept without trailing slashes, so `https://ehr/fhir/` finds the
 * client of `https://ehr/fhir`, while `https://ehr/fhir//` finds none.
 *
 * @internal
 */
export function issuerKey(iss: string): string {
  return iss.endsWith('/') ? iss.slice(0, -1) : iss
}

/**
 * An `iss` as a caller gives it (from a launch URL a stranger may have written): a string of at
 * most 2048 printable ASCII characters that parses as an absolute `https:` or `http:` URL,
 * without user info or fragment (a FHIR base URL has neither). Checked before any client is looked up or resolved.
 *
 * @throws ConfigurationError on `iss`, quoting at most the first 200 characters (user info
 *   redacted).
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#step-1-app-requests-authorization
 * @internal
 */
export function checkIss(iss: unknown): string {
  if (typeof iss !== 'string' || iss === '') {
    throw new ConfigurationError({
      invalidAttribute: 'iss',
      invalidValue: describeKind(iss),
      message: `iss must be the FHIR base URL of an EHR, not ${iss === '' ? 'an empty string' : describeKind(iss)}`,
    })
  }
  const refuse = (why: string) =>
    new ConfigurationError({
      invalidAttribute: 'iss',
      invalidValue: quoteIss(iss),
      message: `iss ${quoteIss(iss)} ${why}`,
    })
  if (iss.length > maximumIssLength) throw refuse(`is longer than ${maximumIssLength} characters`)
  // The URL parser drops tabs and newlines and trims spaces: what it reads is not what was given.
  if (/[^\x21-\x7e]/.test(iss)) throw refuse('holds a space, control or non-ASCII character')
  let url: URL
  try {
    url = new URL(iss)
  } catch {
    throw refuse('is not an absolute URL')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('is not an HTTPS URL')
  if (url.username !== '' || url.password !== '') throw refuse('carries user info')
  if (iss.includes('#')) throw refuse('carries a fragment')
  return iss
}

/**
 * An `iss` as an error may show it: user info redacted, control characters escaped, cut to 200
 * characters.
 *
 * @internal
 */
export function quoteIss(iss: string): string {
  const shown = JSON.stringify(withoutUserInfo(iss).slice(0, quotedIssLength))
  return iss.length > quotedIssLength ? `${shown}…` : shown
}
