// One failure of each kind, told apart by `code`; the library's own log lines go to a logger
// that keeps warnings and leaves failures to this program's report. Against the sandbox: its
// backend client.
import { readFileSync } from 'node:fs'
import { Client, consoleLogger, FhirAuthError, type Logger, TokenError } from '@fhir-auth/client'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`set ${name}`)
  return value
}

/** One line for a log, whatever a fhir-auth call threw; messages never contain secrets. */
function describeFailure(error: unknown): string {
  if (TokenError.isInstance(error)) return `token refused: ${error.error} (status ${error.status})`
  if (!FhirAuthError.isFhirAuthError(error)) return 'unexpected failure'
  switch (error.code) {
    case 'ERR_CONFIGURATION':
      return `fix the configuration: ${error.message}`
    case 'ERR_DISCOVERY':
    case 'ERR_HTTP':
      return `the server could not be reached or understood: ${error.message}`
    default:
      return `${error.name} (${error.code}): ${error.message}`
  }
}

const logger: Logger = { ...consoleLogger('warn'), error: () => {} }
const config = {
  baseUrl: env('FHIR_BASE_URL'),
  clientId: env('CLIENT_ID'),
  privateKey: readFileSync(env('PRIVATE_KEY_FILE'), 'utf8'),
  kid: env('KID'),
  allowInsecureLocalhost: process.env.ALLOW_INSECURE_LOCALHOST === 'true',
}
const options = { clientType: 'confidential_asymmetric', logger } as const

const attempts: [string, () => Promise<unknown>][] = [
  [
    'a scope the server refuses',
    () => new Client({ ...config, scopes: ['user/*.rs'] }, options).requestBackendToken(),
  ],
  [
    'a server that is not there',
    () =>
      new Client({ ...config, baseUrl: 'http://127.0.0.1:9/fhir' }, options).requestBackendToken({
        scopes: ['system/*.rs'],
      }),
  ],
  [
    'a timeout of 0 ms',
    async () => new Client({ ...config, scopes: ['system/*.rs'] }, { ...options, timeoutMs: 0 }),
  ],
]
for (const [what, attempt] of attempts) {
  try {
    await attempt()
    console.log(`${what}: no error`)
  } catch (error) {
    console.log(`${what}: ${describeFailure(error)}`)
  }
}
