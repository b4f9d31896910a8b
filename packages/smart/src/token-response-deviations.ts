/**
 * True when a token endpoint's JSON answer may show a deviation {@link warnOnTokenResponseDeviations}
 * names: the cheap test run on every response, so that the warnings' code loads only for a
 * server that needs them (docs/adr/0012-browser-bytes-by-load-time.md).
 *
 * @internal
 */
export function mayDeviate(body: unknown): body is Readonly<Record<string, unknown>> {
  if (typeof body !== 'object' || body === null) return false
  const { token_type, need_patient_banner, error_description } = body as Record<string, unknown>
  return (
    (typeof token_type === 'string' && token_type !== 'Bearer') ||
    typeof need_patient_banner === 'string' ||
    error_description === null
  )
}
