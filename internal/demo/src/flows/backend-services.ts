/** Section 6: SMART Backend Services, and the deprecated scope fallback. */
import type { Flow } from '../flow.js'
import { type SandboxWorld, smartClientIds } from '../sandbox-world.js'
import { readPatient } from './fhir-read.js'

const tokenFields = ['access_token', 'token_type', 'expires_in', 'scope']
const systemScopes = ['system/Patient.rs']
/** What the library requests, with a deprecation warning, when no scopes are given anywhere. */
const fallbackScope = 'system/*.rs'

/**
 * A backend service (no user) gets a token with `client_credentials` and an ES384 client
 * assertion, reads a patient with it, and then, configured without scopes, triggers the
 * deprecated `system/*.rs` fallback and its warning.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/backend-services.html
 */
export const backendServicesFlow: Flow<SandboxWorld> = {
  title: 'Backend services: client_credentials with an ES384 assertion',
  async run(context, world) {
    const { es384 } = world.keys
    const credentials = {
      baseUrl: world.smart.fhirBaseUrl,
      clientId: smartClientIds.backend,
      privateKey: es384.privateKeyPem,
      kid: es384.kid,
      allowInsecureLocalhost: true,
    }
    const client = context.createClient(
      { ...credentials, scopes: systemScopes },
      { clientType: 'confidential_asymmetric' },
    )
    const token = await context.call(
      'client.requestBackendToken()',
      () => client.requestBackendToken(),
      {
        responseFields: tokenFields,
      },
    )
    context.check(
      token.scope === systemScopes.join(' ') && typeof token.expires_in === 'number',
      `system token: scope "${String(token.scope)}", expires in ${String(token.expires_in)} s, no refresh token`,
      `unexpected backend token: scope "${String(token.scope)}"`,
    )
    await readPatient(context, world.smart.fhirBaseUrl, 'patient-1', token.access_token)

    context.transcript.note(
      'The same service configured without scopes: 0.4.x falls back to system/*.rs and warns (0.6.0 will refuse).',
    )
    const unscoped = context.createClient(credentials, { clientType: 'confidential_asymmetric' })
    const warningsBefore = countWarnings(context.logger.lines)
    const fallback = await context.call(
      'client.requestBackendToken()',
      () => unscoped.requestBackendToken(),
      // The assertion is built as above; the scope is what this step is about.
      { requestFields: ['scope'], responseFields: tokenFields },
    )
    context.check(
      countWarnings(context.logger.lines) > warningsBefore && fallback.scope === fallbackScope,
      `deprecation warning logged, ${fallbackScope} requested and granted`,
      'the scope fallback did not warn or did not request system/*.rs',
    )
  },
}

function countWarnings(lines: readonly { readonly level: string }[]): number {
  return lines.filter((line) => line.level === 'warn').length
}
