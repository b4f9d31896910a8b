import { ConfigurationError } from '@fhir-auth/core'
import { checkExclusive, type ParsedFlags, usageError } from '../args.js'
import type { CommandContext } from '../commands/command.js'
import { readSecretFile } from '../files.js'

/**
 * Reads a secret from the environment variable a flag names (`--client-secret-env MY_SECRET`):
 * secrets never go on the command line, where `ps` and shell history would show them. The value
 * is registered with the run's redactor.
 *
 * @throws ConfigurationError on the flag when the variable is not set.
 */
export function readEnvironmentSecret(
  variable: string,
  flag: string,
  context: CommandContext,
): string {
  const value = context.io.env[variable]
  if (value === undefined) {
    throw new ConfigurationError({
      invalidAttribute: flag,
      message: `${flag}: environment variable ${variable} is not set`,
    })
  }
  context.secrets.add(value)
  return value
}

/**
 * The PKCS#12 password from `--password-env <VAR>` or `--password-file <file>` (exactly one).
 * There is deliberately no flag that takes the password itself.
 *
 * @throws ConfigurationError on `--password-env` / `--password-file` (a usage error when
 *   neither or both are given).
 */
export async function readPkcs12Password(
  flags: ParsedFlags,
  context: CommandContext,
): Promise<string> {
  checkExclusive(flags, 'password-env', 'password-file')
  const variable = flags.string('password-env')
  if (variable !== undefined) return readEnvironmentSecret(variable, '--password-env', context)
  const file = flags.string('password-file')
  if (file === undefined) {
    throw usageError(
      '--password-env',
      '--pkcs12 needs its password from --password-env <VAR> or --password-file <file>',
    )
  }
  const password = await readSecretFile(file, '--password-file')
  context.secrets.add(password)
  return password
}
