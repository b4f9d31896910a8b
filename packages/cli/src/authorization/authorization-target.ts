import type { AuthorizationUrlOptions, Client, UdapTrustOptions } from '@fhir-auth/client'
import { type OptionSpec, type ParsedFlags, readScopes } from '../args.js'
import { createClient } from '../client-factory.js'
import type { CommandContext } from '../commands/command.js'
import { udapIdentityOptions, udapTrustOptions } from '../commands/shared-options.js'
import { readUdapIdentity } from '../inputs/udap-identity.js'
import { readUdapTrust } from '../inputs/udap-trust.js'

/** The UDAP options of `authorize` besides `--udap` and `--key`. */
export const udapAuthorizeOptions: readonly OptionSpec[] = [
  {
    name: 'idp',
    kind: 'string',
    valueName: 'url',
    description:
      'Tiered OAuth: the identity provider the data holder signs the user in at (adds the udap scope)',
    protocol: 'udap',
  },
  ...udapIdentityOptions,
  ...udapTrustOptions,
]

/**
 * The client of one `authorize` run and what its protocol adds: to the authorization request
 * (SMART: `launch`; UDAP: the trust inputs and `idp`) and to the code exchange (UDAP: the trust
 * inputs). The redirect's checks, RFC 9207 `iss` included, are the library's.
 */
export interface AuthorizationTarget {
  readonly client: Client
  readonly requestOptions: AuthorizationUrlOptions
  readonly exchangeOptions: Partial<UdapTrustOptions>
}

/** A SMART authorization: `--launch`. */
export function smartTarget(client: Client, flags: ParsedFlags): AuthorizationTarget {
  return {
    client,
    requestOptions: { launch: flags.string('launch') },
    exchangeOptions: {},
  }
}

/**
 * A UDAP authorization: a registered client (`--client-id`) signing with its key and chain, the
 * trust inputs for the signed metadata (used for both the request and the exchange), and
 * `--idp`, which makes it a `tiered_oauth` client.
 *
 * @throws ConfigurationError on the flags (usage errors), as `readUdapTrust` and
 *   `readUdapIdentity` say.
 */
export async function udapTarget(
  flags: ParsedFlags,
  context: CommandContext,
): Promise<AuthorizationTarget> {
  const baseUrl = flags.requireString('base-url')
  const config = {
    baseUrl,
    clientId: flags.requireString('client-id'),
    redirectUri: flags.requireString('redirect-uri'),
    scopes: readScopes(flags),
  }
  const trust: UdapTrustOptions = await readUdapTrust(flags)
  const identity = await readUdapIdentity(flags, context)
  const idp = flags.string('idp')
  const client = createClient(
    context,
    { ...config, privateKey: identity.privateKey, certificateChain: identity.certificateChain },
    'udap',
    undefined,
    undefined,
    idp === undefined ? undefined : 'tiered_oauth',
  )
  return {
    client,
    requestOptions: { ...trust, ...(idp === undefined ? {} : { idp }) },
    exchangeOptions: trust,
  }
}
