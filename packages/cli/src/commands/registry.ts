import { authorizeCommand } from './authorize.js'
import type { Command } from './command.js'
import { discoverCommand } from './discover.js'
import { doctorCommand } from './doctor.js'
import { keysCommand } from './keys.js'
import { registerCommand } from './register.js'
import { scopesCommand } from './scopes.js'
import { tokenCommand } from './token.js'

/** Every `fhir-auth` command, in the order `--help` lists them. */
export const commands: readonly Command[] = [
  discoverCommand,
  registerCommand,
  tokenCommand,
  authorizeCommand,
  scopesCommand,
  keysCommand,
  doctorCommand,
]

/** The command with this name, if there is one. */
export function findCommand(name: string): Command | undefined {
  return commands.find((command) => command.name === name)
}
