import type { RegistrationResponse } from '@fhir-auth/client'
import {
  checkExclusive,
  checkProtocolOptions,
  type OptionSpec,
  type ParsedFlags,
  usageError,
} from '../args.js'
import { createClient } from '../client-factory.js'
import { readJsonObject } from '../files.js'
import { readUdapIdentity } from '../inputs/udap-identity.js'
import { readUdapTrust } from '../inputs/udap-trust.js'
import { formatRows, objectRows } from '../output/human-format.js'
import type { Command, CommandContext } from './command.js'
import {
  baseUrlOption,
  keyOption,
  secretsNote,
  udapIdentityOptions,
  udapIdentityUsage,
  udapOption,
  udapTrustOptions,
} from './shared-options.js'

const options: readonly OptionSpec[] = [
  udapOption,
  baseUrlOption,
  {
    name: 'metadata',
    kind: 'string',
    valueName: 'json|file',
    description: 'client metadata: inline JSON (starting with "{") or a JSON file',
  },
  {
    name: 'initial-access-token',
    kind: 'string',
    valueName: 'token',
    description: 'initial access token, sent as "Authorization: Bearer <token>"',
    protocol: 'smart',
  },
  {
    name: 'authorization',
    kind: 'string',
    valueName: 'header',
    description: 'the whole Authorization header value, instead of --initial-access-token',
    protocol: 'smart',
  },
  {
    name: 'registration-endpoint',
    kind: 'string',
    valueName: 'url',
    description: 'registration endpoint (default: the discovered one)',
    protocol: 'smart',
  },
  {
    name: 'client-uri',
    kind: 'string',
    valueName: 'uri',
    description: 'the client URI: software statement iss/sub, a URI SAN of the certificate',
    protocol: 'udap',
  },
  { ...keyOption, protocol: 'udap' },
  ...udapIdentityOptions,
  ...udapTrustOptions,
  {
    name: 'cancel',
    kind: 'boolean',
    description: 'cancel the registration (a software statement with grant_types [])',
    protocol: 'udap',
  },
]

/**
 * `fhir-auth register`: RFC 7591 dynamic registration (SMART), or UDAP signed registration,
 * modification (register again with the same client URI) and cancellation (`--cancel`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7591
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html
 */
export const registerCommand: Command = {
  name: 'register',
  summary: 'register a client (SMART RFC 7591, or UDAP with a signed software statement)',
  synopsis: [
    '--base-url <url> --metadata <json|file> [--initial-access-token <token> | --authorization <header>] [--registration-endpoint <url>]',
    `--udap --base-url <url> --client-uri <uri> --metadata <json|file> ${udapIdentityUsage} --trust-anchor <file>… [--crl <file>…] [--community <uri>] [--cancel]`,
  ],
  positionals: [],
  options,
  notes: [
    'Prints the registration response as the server sent it (it may hold a client_secret or registration_access_token: that is what you asked for). --json prints it as one JSON object.',
    'UDAP metadata needs client_name, contacts (with a mailto:), scope and, to register, grant_types (exactly one of authorization_code and client_credentials). A cancellation takes the same metadata without grant_types.',
    secretsNote,
  ],
  async execute(flags: ParsedFlags, context: CommandContext): Promise<void> {
    const protocol = flags.flag('udap') ? 'udap' : 'smart'
    checkProtocolOptions(flags, options, protocol)
    const response =
      protocol === 'udap' ? await registerUdap(flags, context) : await registerSmart(flags, context)
    const isCancellation = flags.flag('cancel')
    context.secrets.add(stringMember(response, 'client_secret'))
    context.secrets.add(stringMember(response, 'registration_access_token'))
    context.output.result(
      response,
      () =>
        `${isCancellation ? 'Cancelled the registration of' : 'Registered'} client ${response.client_id}\n${formatRows(objectRows(response))}`,
    )
  },
}

async function registerSmart(
  flags: ParsedFlags,
  context: CommandContext,
): Promise<RegistrationResponse> {
  checkExclusive(flags, 'initial-access-token', 'authorization')
  const registrationEndpoint = flags.string('registration-endpoint')
  const baseUrl =
    registrationEndpoint === undefined
      ? flags.requireString('base-url', 'to discover the registration endpoint')
      : flags.string('base-url')
  const metadata = await readJsonObject(
    flags.requireString('metadata', 'with the client metadata'),
    '--metadata',
  )
  const token = flags.string('initial-access-token')
  context.secrets.add(token)
  const authorization = token === undefined ? flags.string('authorization') : `Bearer ${token}`
  context.secrets.add(authorization)
  const client = createClient(context, { baseUrl }, 'smart')
  context.output.progress(`registering at ${registrationEndpoint ?? `the endpoint of ${baseUrl}`}`)
  return client.registerClient(metadata, { registrationEndpoint, authorization })
}

async function registerUdap(
  flags: ParsedFlags,
  context: CommandContext,
): Promise<RegistrationResponse> {
  const baseUrl = flags.requireString('base-url')
  const clientUri = flags.requireString('client-uri', 'with --udap: a URI SAN of your certificate')
  const metadataText = flags.string('metadata')
  if (metadataText === undefined) {
    throw usageError(
      '--metadata',
      '--metadata is required with --udap (client_name, contacts, scope, and grant_types to register)',
    )
  }
  const metadata = await readJsonObject(metadataText, '--metadata')
  const trust = await readUdapTrust(flags)
  const identity = await readUdapIdentity(flags, context)
  const client = createClient(
    context,
    { baseUrl, privateKey: identity.privateKey, certificateChain: identity.certificateChain },
    'udap',
  )
  const registrationOptions = { ...trust, clientUri }
  if (flags.flag('cancel')) {
    context.output.progress(`verifying ${baseUrl} and cancelling the registration of ${clientUri}`)
    return client.cancelRegistration(metadata, registrationOptions)
  }
  context.output.progress(`verifying ${baseUrl} and registering ${clientUri}`)
  return client.registerClient(metadata, registrationOptions)
}

function stringMember(record: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = record[name]
  return typeof value === 'string' ? value : undefined
}
