import type {
  Client,
  ClientConfigInput,
  DiagnosticCheck,
  DiagnosticReport,
} from '@fhir-auth/client'
import { type ParsedFlags, readScopes } from '../args.js'
import { type ExitCode, exitCodes } from '../exit-codes.js'
import { smartClientFromCredentials } from '../inputs/smart-credentials.js'
import type { Command, CommandContext } from './command.js'
import {
  baseUrlOption,
  clientIdOption,
  keyOption,
  kidOption,
  scopeOption,
  secretsNote,
} from './shared-options.js'

/**
 * `fhir-auth doctor`: `client.diagnose()` from a terminal, for the client the flags describe
 * (public by default; `--client-secret-env` symmetric; `--key` with `--kid` asymmetric). Prints
 * every check as a table (or, with `--json`, the report), and exits 1 when a check fails.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/troubleshooting.md
 */
export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'check a SMART client’s configuration against its server, and explain what fails',
  synopsis: [
    '--base-url <url> --client-id <id> --key <file> --kid <kid> [--jwks-uri <url>] [--scope <scope>…] [--try-token]',
    '--base-url <url> --client-id <id> --redirect-uri <uri> [--client-secret-env <VAR>] [--scope <scope>…]',
  ],
  positionals: [],
  options: [
    baseUrlOption,
    clientIdOption,
    scopeOption,
    {
      name: 'redirect-uri',
      kind: 'string',
      valueName: 'uri',
      description: 'the registered redirect URI (apps that launch)',
    },
    {
      name: 'client-secret-env',
      kind: 'string',
      valueName: 'VAR',
      description: 'environment variable holding the client secret (confidential symmetric client)',
    },
    keyOption,
    kidOption,
    {
      name: 'jwks-uri',
      kind: 'string',
      valueName: 'url',
      description: 'the JWKS URL registered for the key: checked to be reachable and to publish it',
    },
    {
      name: 'try-token',
      kind: 'boolean',
      description: 'also request a client_credentials token (the token is never printed)',
    },
  ],
  notes: [
    'Checks: discovery, issuer-binding, capabilities, pkce, signing-algorithm, key-strength, jwks, clock, redirect-uri, scopes, and token with --try-token. Each is pass, warn or fail; every warn and fail has a hint. Exit code 0 when nothing fails, 1 when a check fails. --json prints the report: { ok, checks: [{ id, status, message, hint?, causes? }] }.',
    secretsNote,
  ],
  async execute(flags: ParsedFlags, context: CommandContext): Promise<ExitCode> {
    const client = await doctorClient(flags, context)
    context.output.progress(`diagnosing ${flags.requireString('base-url')}`)
    const report = await client.diagnose({ tryToken: flags.flag('try-token') })
    context.output.result(report, () => formatReport(report))
    return report.ok ? exitCodes.success : exitCodes.failure
  },
}

/** The client the flags describe, its type chosen by the credential flags. */
function doctorClient(flags: ParsedFlags, context: CommandContext): Promise<Client> {
  const config: ClientConfigInput = {
    baseUrl: flags.requireString('base-url'),
    clientId: flags.string('client-id'),
    redirectUri: flags.string('redirect-uri'),
    scopes: readScopes(flags),
    jwksUri: flags.string('jwks-uri'),
  }
  return smartClientFromCredentials(flags, context, config, { keyOnly: ['kid', 'jwks-uri'] })
}

const statusLabels: Readonly<Record<DiagnosticCheck['status'], string>> = {
  pass: 'pass',
  warn: 'WARN',
  fail: 'FAIL',
}

/** The report as a table: one row per check, its hint on the line below. */
export function formatReport(report: DiagnosticReport): string {
  const failed = report.checks.filter((check) => check.status === 'fail').length
  const warned = report.checks.filter((check) => check.status === 'warn').length
  const width = Math.max(5, ...report.checks.map((check) => check.id.length))
  const lines = [
    `${report.ok ? 'ok' : 'NOT OK'}: ${failed} failed, ${warned} warned, ${report.checks.length - failed - warned} passed`,
    '',
    `${'check'.padEnd(width)}  status  message`,
  ]
  for (const check of report.checks) {
    lines.push(
      `${check.id.padEnd(width)}  ${statusLabels[check.status].padEnd(6)}  ${check.message}`,
    )
    if (check.hint !== undefined) lines.push(`${' '.repeat(width + 10)}hint: ${check.hint}`)
  }
  return `${lines.join('\n')}\n`
}
