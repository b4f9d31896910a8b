import { ConfigurationError } from '@fhir-auth/client'

/** The app's settings: one FHIR server and this app's registration with it. */
export interface WebAppSettings {
  /** The one FHIR server this app trusts; an EHR launch naming any other `iss` is refused. */
  readonly fhirBaseUrl: string
  readonly clientId: string
  /** This app is a confidential client: the secret stays on the server. */
  readonly clientSecret: string
  /** `https://<your app>/callback`, exactly as registered with the authorization server. */
  readonly redirectUri: string
  /** Permit plain HTTP to 127.0.0.1 / localhost: for a local test server only. */
  readonly allowInsecureLocalhost: boolean
}

/** The variables {@link readSettings} looks at. */
export type Environment = Readonly<Record<string, string | undefined>>

/**
 * Reads `FHIR_BASE_URL`, `CLIENT_ID`, `CLIENT_SECRET`, `REDIRECT_URI` and the optional
 * `ALLOW_INSECURE_LOCALHOST=true`.
 *
 * @throws ConfigurationError naming the missing variable.
 */
export function readSettings(environment: Environment): WebAppSettings {
  return {
    fhirBaseUrl: required(environment, 'FHIR_BASE_URL'),
    clientId: required(environment, 'CLIENT_ID'),
    clientSecret: required(environment, 'CLIENT_SECRET'),
    redirectUri: required(environment, 'REDIRECT_URI'),
    allowInsecureLocalhost: environment.ALLOW_INSECURE_LOCALHOST === 'true',
  }
}

function required(environment: Environment, name: string): string {
  const value = environment[name]?.trim()
  if (!value) {
    throw new ConfigurationError({
      invalidAttribute: name,
      message: `set the environment variable ${name}`,
    })
  }
  return value
}
