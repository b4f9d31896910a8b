import {
  type BasicAuthEncoding,
  Client,
  type ClientConfigInput,
  type ClientType,
  type UdapFlow,
} from '@fhir-auth/client'
import type { CliProtocol } from './args.js'
import type { CommandContext } from './commands/command.js'

/**
 * A `Client` for one command: the run's crypto backend, logger, `--timeout` and
 * `--allow-insecure-localhost` applied to the given configuration.
 *
 * @throws ConfigurationError from `new Client` (e.g. a `baseUrl` that is not an absolute URL).
 */
export function createClient(
  context: CommandContext,
  config: ClientConfigInput,
  protocol: CliProtocol,
  clientType?: ClientType,
  basicAuthEncoding?: BasicAuthEncoding,
  flow?: UdapFlow,
): Client {
  return new Client(
    { ...config, allowInsecureLocalhost: context.allowInsecureLocalhost },
    {
      protocol,
      clientType,
      crypto: context.crypto,
      logger: context.logger,
      timeoutMs: context.timeoutMs,
      ...(basicAuthEncoding === undefined ? {} : { basicAuthEncoding }),
      ...(flow === undefined ? {} : { flow }),
    },
  )
}
