/**
 * Sends the browser to the authorization endpoint with an HTML form POST (SMART
 * `authorize-post`) instead of a GET URL: the parameters travel in the request body, so they
 * stay out of the server's access logs, the browser history and any `Referer`.
 *
 * The form is built with DOM calls (never HTML strings), so no value can inject markup.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#request-4
 */
export function submitAuthorizePost(
  authorizationEndpoint: string,
  params: Readonly<Record<string, string>>,
): void {
  const form = document.createElement('form')
  form.method = 'post'
  form.action = authorizationEndpoint
  form.hidden = true
  for (const [name, value] of Object.entries(params)) {
    const input = document.createElement('input')
    input.type = 'hidden'
    input.name = name
    input.value = value
    form.append(input)
  }
  document.body.append(form)
  form.submit()
}
