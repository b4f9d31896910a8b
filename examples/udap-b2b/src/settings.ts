import { readFile } from 'node:fs/promises'
import { delimiter } from 'node:path'
import { ConfigurationError } from '@fhir-auth/client'

/** Everything the UDAP B2B client needs, read from the environment. */
export interface UdapB2bSettings {
  /** The FHIR base URL exactly as the server's certificate names it (case and slash matter). */
  readonly fhirBaseUrl: string
  /** This client's URI: a URI SAN of its certificate, `iss` of its software statements. */
  readonly clientUri: string
  /** The client's certificate and key as a PKCS#12 file, the form UDAP communities hand out. */
  readonly pkcs12File: string
  readonly pkcs12Password: string
  /** The community's trust anchors (root certificates), PEM or DER files. */
  readonly trustAnchorFiles: readonly string[]
  /** A current CRL for every CA in the server's chain, PEM or DER files: revocation is required. */
  readonly crlFiles: readonly string[]
  /** The `client_id` from an earlier registration; without it the client registers first. */
  readonly clientId: string | undefined
  readonly clientName: string
  /** `mailto:` address for the server's operators. */
  readonly contact: string
  readonly scopes: readonly string[]
  /** `hl7-b2b`: a URI identifying the organization the request is made for. */
  readonly organizationId: string
  readonly organizationName: string | undefined
  /** `hl7-b2b`: purpose-of-use codes, default treatment (`…5.8#TREAT`). */
  readonly purposeOfUse: readonly string[]
  /** A resource to read with the token, relative to the base URL (`Patient/123`); optional. */
  readonly resourcePath: string | undefined
  /** Permit plain HTTP to 127.0.0.1 / localhost: for a local test server only. */
  readonly allowInsecureLocalhost: boolean
}

/** The variables {@link readSettings} looks at. */
export type Environment = Readonly<Record<string, string | undefined>>

/** HL7 v3 ActReason "treatment", the usual purpose of use for clinical B2B exchange. */
const treatment = 'urn:oid:2.16.840.1.113883.5.8#TREAT'

/**
 * Reads the settings: `FHIR_BASE_URL`, `CLIENT_URI`, `CLIENT_P12_FILE`, `CLIENT_P12_PASSWORD`,
 * `TRUST_ANCHOR_FILES` and `CRL_FILES` (lists separated like `PATH`), `ORGANIZATION_ID`,
 * `CONTACT`; optional `CLIENT_ID`, `CLIENT_NAME`, `SCOPES`, `ORGANIZATION_NAME`,
 * `PURPOSE_OF_USE` (space-separated), `FHIR_RESOURCE`, `ALLOW_INSECURE_LOCALHOST=true`.
 *
 * @throws ConfigurationError naming the missing variable.
 */
export function readSettings(environment: Environment): UdapB2bSettings {
  return {
    fhirBaseUrl: required(environment, 'FHIR_BASE_URL'),
    clientUri: required(environment, 'CLIENT_URI'),
    pkcs12File: required(environment, 'CLIENT_P12_FILE'),
    // An empty password is a valid PKCS#12 password, so only a missing variable is an error.
    pkcs12Password: environment.CLIENT_P12_PASSWORD ?? missing('CLIENT_P12_PASSWORD'),
    trustAnchorFiles: required(environment, 'TRUST_ANCHOR_FILES').split(delimiter).filter(Boolean),
    crlFiles: required(environment, 'CRL_FILES').split(delimiter).filter(Boolean),
    clientId: environment.CLIENT_ID?.trim() || undefined,
    clientName: environment.CLIENT_NAME?.trim() || 'fhir-auth UDAP B2B example',
    contact: required(environment, 'CONTACT'),
    scopes: words(environment.SCOPES) ?? ['system/*.rs'],
    organizationId: required(environment, 'ORGANIZATION_ID'),
    organizationName: environment.ORGANIZATION_NAME?.trim() || undefined,
    purposeOfUse: words(environment.PURPOSE_OF_USE) ?? [treatment],
    resourcePath: environment.FHIR_RESOURCE?.trim() || undefined,
    allowInsecureLocalhost: environment.ALLOW_INSECURE_LOCALHOST === 'true',
  }
}

/**
 * Reads a certificate or CRL file: PEM text stays text, anything else is DER bytes. The
 * library takes both.
 *
 * @throws ConfigurationError naming the file when it cannot be read.
 */
export async function readPemOrDer(file: string): Promise<string | Uint8Array> {
  let bytes: Uint8Array
  try {
    bytes = await readFile(file)
  } catch (error) {
    throw new ConfigurationError({
      invalidAttribute: 'file',
      invalidValue: file,
      message: `cannot read ${JSON.stringify(file)} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`,
    })
  }
  const text = new TextDecoder().decode(bytes)
  return text.includes('-----BEGIN ') ? text : new Uint8Array(bytes)
}

function words(value: string | undefined): string[] | undefined {
  const list = value?.split(/\s+/).filter(Boolean)
  return list?.length ? list : undefined
}

function required(environment: Environment, name: string): string {
  return environment[name]?.trim() || missing(name)
}

function missing(name: string): never {
  throw new ConfigurationError({
    invalidAttribute: name,
    message: `set the environment variable ${name}`,
  })
}
