import { readFile } from 'node:fs/promises'
import { ConfigurationError } from '@fhir-auth/client'

/** Everything the backend-services script needs, read from the environment. */
export interface BackendServicesSettings {
  /** The FHIR server's base URL; discovery is `{fhirBaseUrl}/.well-known/smart-configuration`. */
  readonly fhirBaseUrl: string
  /** The client id the server assigned when you registered the public key (JWKS). */
  readonly clientId: string
  /** PKCS#8, PKCS#1 (RSA) or SEC1 (EC) PEM: RSA signs RS384, P-384 signs ES384. */
  readonly privateKeyPem: string
  /** The `kid` of the registered public key; the server uses it to pick the key. */
  readonly kid: string
  /** `system/` scopes to request. */
  readonly scopes: readonly string[]
  /** The resource to read with the token, relative to the base URL, e.g. `Patient/123`. */
  readonly resourcePath: string
  /** Permit plain HTTP to 127.0.0.1 / localhost: for a local test server only. */
  readonly allowInsecureLocalhost: boolean
  /** A Redis the service's processes share tokens through; none: each process keeps its own. */
  readonly redisUrl: string | undefined
  /** 32 bytes that seal what the service keeps in Redis (the same in every process). */
  readonly storeEncryptionKey: Uint8Array | undefined
}

/** The variables {@link readSettings} looks at. */
export type Environment = Readonly<Record<string, string | undefined>>

const defaultScopes = ['system/Patient.rs']

/**
 * Reads the settings from environment variables:
 * `FHIR_BASE_URL`, `CLIENT_ID`, `KEY_ID`, `FHIR_RESOURCE`, the key as `PRIVATE_KEY_PEM` (the
 * PEM text) or `PRIVATE_KEY_FILE` (a path), optional `SCOPES` (space-separated, default
 * `system/Patient.rs`), `ALLOW_INSECURE_LOCALHOST=true`, and for a fleet `REDIS_URL` with
 * `STORE_ENCRYPTION_KEY` (64 hex digits: 32 bytes).
 *
 * Keys belong in a secret store or a file only the service can read; an environment variable
 * is the common denominator of both (Kubernetes secrets, systemd credentials).
 *
 * @throws ConfigurationError naming the missing or unusable variable.
 */
export async function readSettings(environment: Environment): Promise<BackendServicesSettings> {
  return {
    fhirBaseUrl: required(environment, 'FHIR_BASE_URL'),
    clientId: required(environment, 'CLIENT_ID'),
    privateKeyPem: await readPrivateKey(environment),
    kid: required(environment, 'KEY_ID'),
    scopes: environment.SCOPES?.split(/\s+/).filter(Boolean) ?? defaultScopes,
    resourcePath: required(environment, 'FHIR_RESOURCE'),
    allowInsecureLocalhost: environment.ALLOW_INSECURE_LOCALHOST === 'true',
    redisUrl: environment.REDIS_URL?.trim() || undefined,
    storeEncryptionKey: readEncryptionKey(environment),
  }
}

function readEncryptionKey(environment: Environment): Uint8Array | undefined {
  const hex = environment.STORE_ENCRYPTION_KEY?.trim()
  if (!hex) return undefined
  if (!/^[\da-f]{64}$/i.test(hex)) {
    // The value is a secret: the error says what is wrong with it, never what it is.
    throw new ConfigurationError({
      invalidAttribute: 'STORE_ENCRYPTION_KEY',
      message: 'STORE_ENCRYPTION_KEY must be 64 hexadecimal digits (32 bytes)',
    })
  }
  return Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16))
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

async function readPrivateKey(environment: Environment): Promise<string> {
  const pem = environment.PRIVATE_KEY_PEM?.trim()
  if (pem) return pem
  const file = environment.PRIVATE_KEY_FILE?.trim()
  if (!file) {
    throw new ConfigurationError({
      invalidAttribute: 'PRIVATE_KEY_PEM',
      message: 'set PRIVATE_KEY_PEM (the PEM text) or PRIVATE_KEY_FILE (a path to it)',
    })
  }
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    // The path is not a secret; the error code says whether it is missing or unreadable.
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error'
    throw new ConfigurationError({
      invalidAttribute: 'PRIVATE_KEY_FILE',
      invalidValue: file,
      message: `cannot read PRIVATE_KEY_FILE ${JSON.stringify(file)} (${code})`,
    })
  }
}
