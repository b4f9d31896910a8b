import type { CommandContext } from '../commands/command.js'
import { formatRows, objectRows } from './human-format.js'

/** Token response members that are credentials. */
const tokenMembers = ['access_token', 'refresh_token', 'id_token']

/**
 * Writes a token response to stdout (the user asked for it) and registers its tokens with the
 * run's redactor, so nothing written to stderr afterwards can show them.
 */
export function writeTokenResponse(
  response: Readonly<Record<string, unknown>>,
  context: CommandContext,
): void {
  for (const member of tokenMembers) {
    const value = response[member]
    if (typeof value === 'string') context.secrets.add(value)
  }
  context.output.result(response, () => `Token response\n${formatRows(objectRows(response))}`)
}
