/**
 * Runs one operation against the echoing server with one echo form, and reports every fragment
 * (8 characters or more) of every secret in what a caller or a logger can see: the error's
 * message, stack, `String`, `toJSON`, `util.inspect` and those of each `cause`, and every line
 * the recording logger was given.
 */
import { FhirAuthError } from '@fhir-auth/client'
import { type CapturingLogger, createCapturingLogger } from '@fhir-auth/test-utils'
import { rejectionOf } from '@fhir-auth/test-utils/failure'
import { secretFragments, visibleTexts } from '../../../design-12/support/index.js'
import type { EchoForm } from './echo-forms.js'
import type { EchoingUdapServer } from './echoing-udap-server.js'
import { type SecretOperation, wireSecretsOf } from './secret-operations.js'

/** What one echoed run gave: the error, the secrets of its request, and every leak found. */
export interface EchoedRun {
  readonly error: unknown
  readonly secrets: Readonly<Record<string, string>>
  readonly leaks: readonly string[]
}

/** Every fragment of every secret in every text the caller or the logs can see. */
export function leaksOf(
  error: unknown,
  logger: CapturingLogger,
  secrets: Readonly<Record<string, string>>,
): string[] {
  const texts = [...visibleTexts(error), ...logger.renderedLines()]
  return Object.entries(secrets).flatMap(([label, value]) =>
    secretFragments(value, texts).map((where) => `${label} ${where}`),
  )
}

/**
 * Runs `operation` while the server answers with `form`, fed the secrets of the request as sent
 * plus those the caller holds. The operation must fail with a fhir-auth error.
 */
export async function runEchoed(
  server: EchoingUdapServer,
  operation: SecretOperation,
  form: EchoForm,
): Promise<EchoedRun> {
  let secrets: Record<string, string> = { ...operation.held }
  server.answerWith((request) => {
    secrets = { ...wireSecretsOf(request), ...operation.held }
    return form.answer(secrets, request)
  })
  const logger = createCapturingLogger()
  const before = server.received.length
  const error = await rejectionOf(operation.run(server, logger))
  if (server.received.length === before) {
    throw new Error(`${operation.name} sent nothing to the echoing server: ${String(error)}`)
  }
  if (!FhirAuthError.isFhirAuthError(error)) {
    throw new Error(`${operation.name} failed with a raw error: ${String(error)}`)
  }
  return { error, secrets, leaks: leaksOf(error, logger, secrets) }
}
