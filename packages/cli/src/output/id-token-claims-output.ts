import type { TokenSet } from '@fhir-auth/client'
import type { CommandContext } from '../commands/command.js'
import { formatRows, objectRows } from './human-format.js'

/**
 * With `--verbose`, writes the claims of the ID token the library validated (signature with the
 * server's key, `iss`, `aud`, `exp`, `iat`, `nonce`): who signed in, as a result on stdout —
 * with `--json` as one more line, `{"idTokenClaims": …}`. When there is none (no `openid` in the
 * scopes, or no ID token in the response), a detail line on stderr says so. Without
 * `--verbose`, nothing.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation OIDC Core §3.1.3.7
 */
export function writeIdTokenClaims(tokens: TokenSet, context: CommandContext): void {
  const { output } = context
  if (!output.isVerbose) return
  const claims = tokens.idTokenClaims
  if (claims === undefined) {
    output.detail(
      tokens.idToken === undefined
        ? 'no ID token: the server sent none (ask for the openid scope)'
        : 'the ID token was not validated: the scopes did not include openid',
    )
    return
  }
  output.result(
    { idTokenClaims: claims },
    () => `\nID token claims (validated)\n${formatRows(objectRows(claims))}`,
  )
}
