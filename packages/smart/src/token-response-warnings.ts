import type { Logger } from '@fhir-auth/core/essentials'

/**
 * One warning for each deviation real EHRs are known for in a token response, all tolerated
 * because none touches security: `token_type` in another letter case than `Bearer` (RFC 6749
 * §7.1 leaves the case open; SMART writes `Bearer`), `need_patient_banner` as the string
 * `"true"`/`"false"` (read as the boolean), and `error_description: null` in an error (ignored).
 * Vendor members (Epic's `__epic.dstu2.patient`) are not deviations: RFC 6749 §5.1 allows them,
 * and they stay in the response as received. Never quotes a value that could be a token.
 * Loaded only when `mayDeviate` says so.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1 RFC 6749 §5.1
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2 RFC 6749 §5.2
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#response-5
 * @internal
 */
export function warnOnTokenResponseDeviations(
  body: unknown,
  isSuccess: boolean,
  logger: Logger,
): void {
  // Imports nothing that runs: a module that did would split the chunks every app loads.
  if (typeof body !== 'object' || body === null) return
  const members = body as Readonly<Record<string, unknown>>
  const warn = (message: string, member: string) =>
    logger.warn(`Token response: ${message}`, { event: 'tokens.deviation', member })
  if (!isSuccess) {
    if (members.error_description === null) {
      warn(
        'error_description is null (a string or absent, RFC 6749 §5.2); ignored',
        'error_description',
      )
    }
    return
  }
  const tokenType = members.token_type
  if (typeof tokenType === 'string' && tokenType !== 'Bearer' && /^bearer$/i.test(tokenType)) {
    warn(`token_type "${tokenType}" is not written "Bearer"; read as Bearer`, 'token_type')
  }
  const banner = members.need_patient_banner
  if (banner === 'true' || banner === 'false') {
    warn(
      `need_patient_banner is the string "${banner}", not a boolean; read as ${banner}`,
      'need_patient_banner',
    )
  }
}
