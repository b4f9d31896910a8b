/// <reference path="./oidc-provider.d.ts" />
import type { ProviderMiddleware } from 'oidc-provider'
import type { LaunchContext } from './launch-context.js'

/** Settings of {@link launchContextMiddleware}. */
export interface TokenResponseContextSettings {
  readonly launchContexts: ReadonlyMap<string, LaunchContext>
  /** URL of the sandbox's style sheet (`smart_style_url`, capability `context-style`). */
  readonly smartStyleUrl: string
}

/**
 * Adds SMART launch context to successful app-launch token responses (authorization code and
 * refresh): `patient` and `encounter` when the grant has them, and always
 * `need_patient_banner` and `smart_style_url`. Backend-services responses stay untouched.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#response-5
 */
export function launchContextMiddleware(
  settings: TokenResponseContextSettings,
): ProviderMiddleware {
  return async (context, next) => {
    await next()
    const oidc = context.oidc
    if (oidc?.route !== 'token' || context.status !== 200) return
    const grantType = oidc.params?.grant_type
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') return
    if (typeof context.body !== 'object' || context.body === null) return
    const grantId = oidc.entities.AccessToken?.grantId
    const launchContext = grantId === undefined ? undefined : settings.launchContexts.get(grantId)
    if (launchContext === undefined) return
    context.body = {
      ...context.body,
      ...(launchContext.patient === undefined ? {} : { patient: launchContext.patient }),
      ...(launchContext.encounter === undefined ? {} : { encounter: launchContext.encounter }),
      need_patient_banner: launchContext.needPatientBanner,
      smart_style_url: settings.smartStyleUrl,
    }
  }
}
