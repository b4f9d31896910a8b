/** Section 5: refresh, rotation and replay detection. */
import { TokenError } from '@fhir-auth/client'
import { DemoFailure } from '../demo-failure.js'
import { fingerprint } from '../display-values.js'
import type { Flow } from '../flow.js'
import { handoff, type SandboxWorld } from '../sandbox-world.js'

const tokenFields = [
  'access_token',
  'refresh_token',
  'token_type',
  'expires_in',
  'scope',
  'patient',
]
const reducedScopes = ['patient/*.rs', 'offline_access']

/**
 * Refreshes section 2's token twice (the second time with fewer scopes), shows that every
 * refresh rotates the refresh token, and that replaying a used one is refused and ends the
 * whole grant.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#step-6-app-uses-a-refresh-token-to-obtain-a-new-access-token
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.14.2
 */
export const refreshFlow: Flow<SandboxWorld> = {
  title: 'Refresh: rotation, fewer scopes, replay refused',
  async run(context, world) {
    const { client, token } = handoff(world.handoffs.standalone, 'section 2 (standalone launch)')
    const original = refreshTokenOf(token, 'section 2')
    const refreshed = await context.call(
      'client.refreshToken({ refreshToken })',
      () => client.refreshToken({ refreshToken: original }),
      { responseFields: tokenFields },
    )
    const rotated = refreshTokenOf(refreshed, 'the first refresh')
    context.check(
      rotated !== original,
      `rotated: refresh token #${fingerprint(rotated)} replaces #${fingerprint(original)}`,
      'the server returned the same refresh token',
    )
    const narrowed = await context.call(
      `client.refreshToken({ refreshToken, scopes: ${JSON.stringify(reducedScopes).replace(/"/g, "'")} })`,
      () => client.refreshToken({ refreshToken: rotated, scopes: reducedScopes }),
      { responseFields: tokenFields },
    )
    const newest = refreshTokenOf(narrowed, 'the narrowed refresh')
    context.check(
      narrowed.scope === reducedScopes.join(' '),
      `narrowed to "${reducedScopes.join(' ')}" (a refresh may narrow scope, never widen it)`,
      `expected scope "${reducedScopes.join(' ')}", got "${String(narrowed.scope)}"`,
    )
    context.transcript.note(
      `replaying the first refresh token #${fingerprint(original)}, as an attacker who copied it would:`,
    )
    const replay = await context.refusal('client.refreshToken({ refreshToken: <used one> })', () =>
      client.refreshToken({ refreshToken: original }),
    )
    context.check(
      replay instanceof TokenError && replay.error === 'invalid_grant',
      'refused with invalid_grant',
      'the replayed refresh token was not refused with invalid_grant',
    )
    context.transcript.note(
      `the server treats the replay as theft and revokes the grant: the newest token #${fingerprint(newest)} is dead too`,
    )
    const revoked = await context.refusal('client.refreshToken({ refreshToken: <newest> })', () =>
      client.refreshToken({ refreshToken: newest }),
    )
    context.check(
      revoked instanceof TokenError && revoked.error === 'invalid_grant',
      'refused with invalid_grant: the whole grant is gone',
      'the newest refresh token still worked after the replay',
    )
  },
}

function refreshTokenOf(token: Readonly<Record<string, unknown>>, source: string): string {
  const value = token.refresh_token
  if (typeof value !== 'string') throw new DemoFailure(`${source} returned no refresh_token`)
  return value
}
