/**
 * An HTML form that submits an authorization request by POST (SMART `authorize-post`): the
 * endpoint as `action`, every parameter as a hidden input, values HTML-escaped.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#request-4
 */
export function authorizationFormHtml(
  endpoint: string,
  params: Readonly<Record<string, string>>,
): string {
  const inputs = Object.entries(params).map(
    ([name, value]) =>
      `  <input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
  )
  return [
    `<form method="post" action="${escapeHtml(endpoint)}">`,
    ...inputs,
    '  <button type="submit">Sign in</button>',
    '</form>',
    '',
  ].join('\n')
}

/** Escapes the five characters that matter in HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}
