import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { globalOptions, isUsageError, type ParsedFlags, parseFlags, readTimeout } from './args.js'
import type { Command, CommandContext } from './commands/command.js'
import { commands, findCommand } from './commands/registry.js'
import { type ExitCode, exitCodeFor, exitCodes } from './exit-codes.js'
import type { CliIo } from './io.js'
import { createCliLogger } from './output/cli-logger.js'
import { reportError } from './output/error-report.js'
import { defaultAttributeHints } from './output/flag-hints.js'
import { SecretRedactor } from './output/secret-redactor.js'
import { Output } from './output.js'
import { commandUsage, generalUsage } from './usage.js'
import { packageVersion } from './version.js'

/**
 * Runs one `fhir-auth` command line and returns its exit code; the binary is a thin wrapper
 * around it. Never throws: every failure becomes an error line on stderr and an exit code (see
 * `exitCodes`).
 *
 * @param argv the arguments after the program name, e.g. `['discover', 'https://…', '--json']`.
 * @param io the streams and environment to use (`processIo()` in the binary, captures in tests).
 * @example
 * ```ts
 * const exitCode = await run(['token', '--base-url', baseUrl, '--client-id', 'app', …], processIo())
 * ```
 */
export async function run(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [first, ...rest] = argv
  const redactor = new SecretRedactor()
  const preliminary = new Output(io, { json: false, verbose: false, redactor })
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const target = first === 'help' && rest[0] !== undefined ? findCommand(rest[0]) : undefined
    preliminary.plain(target === undefined ? generalUsage(commands) : commandUsage(target))
    return first === undefined ? exitCodes.usage : exitCodes.success
  }
  if (first === '--version' || first === '-V') {
    preliminary.plain(`${packageVersion()}\n`)
    return exitCodes.success
  }
  const command = findCommand(first)
  if (command === undefined) {
    const message = first.startsWith('-')
      ? `${first} must follow a command: fhir-auth <command> [options]`
      : `unknown command ${JSON.stringify(first)}`
    preliminary.stderr(`error: ${message}\n\n${generalUsage(commands)}`)
    return exitCodes.usage
  }
  return runCommand(command, rest, io, redactor)
}

async function runCommand(
  command: Command,
  argv: readonly string[],
  io: CliIo,
  redactor: SecretRedactor,
): Promise<ExitCode> {
  let output = new Output(io, { json: argv.includes('--json'), verbose: false, redactor })
  const hints = { ...defaultAttributeHints, ...command.attributeHints }
  try {
    const flags = parseFlags(
      argv,
      [...command.options, ...globalOptions],
      command.positionals.at(-1)?.isVariadic === true
        ? Number.POSITIVE_INFINITY
        : command.positionals.length,
    )
    output = new Output(io, {
      json: flags.flag('json'),
      verbose: flags.flag('verbose'),
      redactor,
    })
    if (flags.flag('help')) {
      output.plain(commandUsage(command))
      return exitCodes.success
    }
    const exitCode = await command.execute(flags, commandContext(flags, io, output, redactor))
    return exitCode ?? exitCodes.success
  } catch (error) {
    reportError(output, error, hints)
    if (isUsageError(error)) output.stderr(`\n${commandUsage(command)}`)
    return exitCodeFor(error)
  }
}

function commandContext(
  flags: ParsedFlags,
  io: CliIo,
  output: Output,
  secrets: SecretRedactor,
): CommandContext {
  const timeoutMs = readTimeout(flags)
  return {
    io,
    output,
    secrets,
    logger: createCliLogger(output),
    crypto: createNodeCryptoBackend(),
    timeoutMs,
    allowInsecureLocalhost: flags.flag('allow-insecure-localhost'),
  }
}
