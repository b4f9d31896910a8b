import type { B2bAuthorizationExtension, TokenResponse } from '@fhir-auth/client'
import {
  checkProtocolOptions,
  type OptionSpec,
  type ParsedFlags,
  readScopes,
  usageError,
} from '../args.js'
import { createClient } from '../client-factory.js'
import { readPrivateKeyFile } from '../files.js'
import { readUdapIdentity } from '../inputs/udap-identity.js'
import { readUdapTrust } from '../inputs/udap-trust.js'
import { writeTokenResponse } from '../output/token-output.js'
import type { Command, CommandContext } from './command.js'
import {
  baseUrlOption,
  clientIdOption,
  keyOption,
  kidOption,
  scopeOption,
  secretsNote,
  udapIdentityOptions,
  udapIdentityUsage,
  udapOption,
  udapTrustOptions,
} from './shared-options.js'

const options: readonly OptionSpec[] = [
  udapOption,
  baseUrlOption,
  clientIdOption,
  scopeOption,
  keyOption,
  kidOption,
  {
    name: 'client-uri',
    kind: 'string',
    valueName: 'uri',
    description:
      'the client URI (a URI SAN of the certificate); alone: the unregistered-client flow',
    protocol: 'udap',
  },
  ...udapIdentityOptions,
  {
    name: 'b2b-organization-id',
    kind: 'string',
    valueName: 'uri',
    description: 'hl7-b2b organization_id: a URI identifying your organization',
    protocol: 'udap',
  },
  {
    name: 'b2b-organization-name',
    kind: 'string',
    valueName: 'name',
    description: 'hl7-b2b organization_name',
    protocol: 'udap',
  },
  {
    name: 'b2b-purpose-of-use',
    kind: 'string',
    repeatable: true,
    valueName: 'code',
    description: 'hl7-b2b purpose_of_use, e.g. urn:oid:2.16.840.1.113883.5.8#TREAT (repeatable)',
    protocol: 'udap',
  },
  ...udapTrustOptions,
]

/**
 * `fhir-auth token`: a client-credentials access token — SMART Backend Services (a signed
 * client assertion) or UDAP (an authentication token, with the `hl7-b2b` extension when
 * given). Prints the token response: the one place the CLI shows a token, because it is what
 * the user asked for.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/backend-services.html
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html
 */
export const tokenCommand: Command = {
  name: 'token',
  summary: 'get a client-credentials access token (SMART Backend Services or UDAP B2B)',
  synopsis: [
    '--base-url <url> --client-id <id> --key <file> --kid <kid> --scope <scope>…',
    `--udap --base-url <url> (--client-id <id> | --client-uri <uri>) ${udapIdentityUsage} --scope <scope>… [--b2b-organization-id <uri> --b2b-purpose-of-use <code>…] --trust-anchor <file>… [--crl <file>…]`,
  ],
  positionals: [],
  options,
  notes: [
    'Prints the token response, access token included: it is what you asked for, so redirect or pipe stdout with care. --json prints it as one JSON object. Tokens never appear on stderr.',
    secretsNote,
  ],
  async execute(flags: ParsedFlags, context: CommandContext): Promise<void> {
    const protocol = flags.flag('udap') ? 'udap' : 'smart'
    checkProtocolOptions(flags, options, protocol)
    const response =
      protocol === 'udap'
        ? await requestUdapToken(flags, context)
        : await requestSmartToken(flags, context)
    writeTokenResponse(response, context)
  },
}

async function requestSmartToken(
  flags: ParsedFlags,
  context: CommandContext,
): Promise<TokenResponse> {
  const baseUrl = flags.requireString('base-url')
  const clientId = flags.requireString('client-id')
  const keyFile = flags.requireString('key', 'to sign the client assertion')
  const kid = flags.requireString('kid', 'to name the registered key')
  const privateKey = await readPrivateKeyFile(keyFile, '--key')
  context.secrets.addPrivateKeyPem(privateKey)
  const client = createClient(context, { baseUrl, clientId, privateKey, kid }, 'smart')
  context.output.progress(`requesting a backend services token for ${clientId}`)
  // Without --scope the library falls back to system/*.rs and warns (0.4.x behaviour).
  return client.requestBackendToken({ scopes: readScopes(flags) })
}

async function requestUdapToken(
  flags: ParsedFlags,
  context: CommandContext,
): Promise<TokenResponse> {
  const baseUrl = flags.requireString('base-url')
  const clientId = flags.string('client-id')
  const clientUri = flags.string('client-uri')
  if (clientId === undefined && clientUri === undefined) {
    throw usageError(
      '--client-id',
      '--client-id (registered client) or --client-uri (unregistered client) is required with --udap',
    )
  }
  const scopes = readScopes(flags)
  if (scopes === undefined) throw usageError('--scope', '--scope is required with --udap')
  const b2b = readB2bExtension(flags)
  const trust = await readUdapTrust(flags)
  const identity = await readUdapIdentity(flags, context)
  const client = createClient(
    context,
    {
      baseUrl,
      clientId,
      privateKey: identity.privateKey,
      certificateChain: identity.certificateChain,
    },
    'udap',
  )
  context.output.progress(`verifying ${baseUrl} and requesting a token`)
  return client.requestBackendToken({ ...trust, scopes, clientUri, b2b })
}

/**
 * The `hl7-b2b` extension from its flags: both `--b2b-organization-id` and at least one
 * `--b2b-purpose-of-use`, or none of the `--b2b-*` flags.
 */
function readB2bExtension(flags: ParsedFlags): B2bAuthorizationExtension | undefined {
  const organizationId = flags.string('b2b-organization-id')
  const purposeOfUse = flags.strings('b2b-purpose-of-use')
  const organizationName = flags.string('b2b-organization-name')
  if (organizationId === undefined && purposeOfUse.length === 0) {
    if (organizationName !== undefined) {
      throw usageError(
        '--b2b-organization-name',
        '--b2b-organization-name needs --b2b-organization-id',
      )
    }
    return undefined
  }
  if (organizationId === undefined) {
    throw usageError('--b2b-organization-id', '--b2b-purpose-of-use needs --b2b-organization-id')
  }
  if (purposeOfUse.length === 0) {
    throw usageError('--b2b-purpose-of-use', '--b2b-organization-id needs --b2b-purpose-of-use')
  }
  return organizationName === undefined
    ? { organizationId, purposeOfUse }
    : { organizationId, purposeOfUse, organizationName }
}
