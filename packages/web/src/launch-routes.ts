import { launchCookieMaxAgeSeconds, setCookie } from './cookies.js'
import { failureResponse } from './failures.js'
import { pendingStates, withLaunch } from './launch-binding.js'
import type { WebAppSettings } from './options.js'
import { type RequestContext, singleParameter } from './request-context.js'
import { plainText, redirect } from './responses.js'

/**
 * `GET /launch?iss=…&launch=…` (EHR launch) and `GET /login[?iss=…]` (standalone launch): `302`
 * to the EHR's authorization endpoint, with the launch cookie that binds the callback to this
 * browser. A missing, repeated or unknown `iss` is `400`, before any request to any server.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#launch-app-ehr-launch SMART EHR launch
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#launch-app-standalone-launch SMART standalone launch
 */
export async function beginLaunch(
  settings: WebAppSettings,
  context: RequestContext,
  kind: 'ehr' | 'standalone',
): Promise<Response> {
  const query = context.url.searchParams
  const given = singleParameter(query, 'iss')
  const launch = kind === 'ehr' ? singleParameter(query, 'launch') : undefined
  if (given === null || launch === null) {
    return plainText(400, 'Bad request: iss and launch may each be given once')
  }
  const iss = given ?? (kind === 'standalone' ? settings.clients.soleIssuer : undefined)
  if (iss === undefined) return plainText(400, 'Bad request: iss is required')
  if (kind === 'ehr' && launch === undefined) {
    return plainText(400, 'Bad request: launch is required')
  }
  try {
    const { authUrl, state } = await settings.clients.beginAuthorization({ iss, launch })
    const { launchName, secure } = context.cookies
    const states = withLaunch(pendingStates(context.launchCookie), state)
    return redirect(302, authUrl, [
      setCookie(launchName, states, launchCookieMaxAgeSeconds, secure),
    ])
  } catch (error) {
    return failureResponse(error)
  }
}
