import type { BasicAuthEncoding, Client, ClientConfigInput } from '@fhir-auth/client'
import { checkExclusive, checkOnlyWith, type ParsedFlags } from '../args.js'
import { createClient } from '../client-factory.js'
import type { CommandContext } from '../commands/command.js'
import { readPrivateKeyFile } from '../files.js'
import { readEnvironmentSecret } from './secret-inputs.js'

/** Flags a command reads beside the credentials, and which make sense only with one of them. */
export interface SmartCredentialFlags {
  /** Flags that need `--key` (`kid` always among them). */
  readonly keyOnly: readonly string[]
  /** Flags that need `--client-secret-env`. */
  readonly secretOnly?: readonly string[] | undefined
  /** Reads the symmetric client's Basic encoding; called only with `--client-secret-env`. */
  readonly basicAuthEncoding?: (() => BasicAuthEncoding | undefined) | undefined
}

/**
 * The SMART client the credential flags describe: `--client-secret-env` makes it confidential
 * symmetric, `--key` (with `--kid`) confidential asymmetric, neither public. The secret and the
 * key join the run's redaction before any request.
 *
 * @throws ConfigurationError (a usage error) for both credentials at once, or a flag given
 *   without the credential it belongs to.
 */
export async function smartClientFromCredentials(
  flags: ParsedFlags,
  context: CommandContext,
  config: ClientConfigInput,
  { keyOnly, secretOnly = [], basicAuthEncoding }: SmartCredentialFlags,
): Promise<Client> {
  checkExclusive(flags, 'client-secret-env', 'key')
  const secretVariable = flags.string('client-secret-env')
  if (secretVariable !== undefined) {
    const encoding = basicAuthEncoding?.()
    const clientSecret = readEnvironmentSecret(secretVariable, '--client-secret-env', context)
    return createClient(
      context,
      { ...config, clientSecret },
      'smart',
      'confidential_symmetric',
      encoding,
    )
  }
  if (secretOnly.length > 0) checkOnlyWith(flags, secretOnly, 'client-secret-env')
  const keyFile = flags.string('key')
  if (keyFile === undefined) {
    checkOnlyWith(flags, keyOnly, 'key')
    return createClient(context, config, 'smart', 'public')
  }
  const kid = flags.requireString('kid', 'with --key')
  const privateKey = await readPrivateKeyFile(keyFile, '--key')
  context.secrets.addPrivateKeyPem(privateKey)
  return createClient(context, { ...config, privateKey, kid }, 'smart', 'confidential_asymmetric')
}
