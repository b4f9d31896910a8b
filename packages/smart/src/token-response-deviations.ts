/**
 * True when a token endpoint's answer may show a deviation `warnOnTokenResponseDeviations`
 * names (`token_type` other than `Bearer`, `need_patient_banner` a string, `error_description`
 * null): a test of the text, run on every response, so that the warnings' code (which parses
 * and checks precisely) loads only for a server that needs it
 * (docs/adr/0012-browser-bytes-by-load-time.md).
 *
 * @internal
 */
export function mayDeviate(bodyText: string): boolean {
  return /"token_type"\s*:\s*"(?!Bearer")|"need_patient_banner"\s*:\s*"|"error_description"\s*:\s*null/.test(
    bodyText,
  )
}
