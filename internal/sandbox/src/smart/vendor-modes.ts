import type { DiscoveryOverride } from './discovery-document.js'

/**
 * Real EHRs the SMART sandbox can behave like, each in the ways its documentation and public
 * issue threads describe (none of them a security deviation):
 *
 * - `epic`: token responses carry vendor members (`__epic.dstu2.patient`, `loginDepartment`) and
 *   `need_patient_banner` as the string `"false"`/`"true"`; `invalid_client` comes with
 *   `error_description: null`. Its OpenID issuer differs from the FHIR base, as every sandbox's
 *   does (issuer `origin`, FHIR base `origin/…`), vouched for by the issuer's
 *   openid-configuration.
 * - `oracle-health`: the tenant id is in the FHIR base path (`/r4/<tenant>`); `.well-known` at
 *   the host root answers 502; errors carry `error_uri` URNs.
 * - `athenahealth`: PKCE S256 is required and works, but discovery has no
 *   `code_challenge_methods_supported`.
 * - `generic`: deviations seen across servers — discovery JSON served as `text/plain`, and
 *   `token_type: "bearer"` in lower case.
 *
 * @see https://fhir.epic.com/Documentation?docId=oauth2
 * @see https://docs.oracle.com/en/industries/health/millennium-platform-apis/
 * @see https://github.com/smart-on-fhir/client-js/issues/174 (athenahealth, PKCE)
 */
export type SandboxVendor = 'epic' | 'oracle-health' | 'athenahealth' | 'generic'

/** Every {@link SandboxVendor}. */
export const sandboxVendors: readonly SandboxVendor[] = [
  'epic',
  'oracle-health',
  'athenahealth',
  'generic',
]

/** What a vendor mode changes in the sandbox. */
export interface VendorBehaviour {
  /** The path of the FHIR base URL under the origin. */
  readonly fhirPath: string
  /** Status of `GET /.well-known/smart-configuration` at the host root, when not the default 404. */
  readonly rootDiscoveryStatus?: number
  readonly discovery?: DiscoveryOverride
  /** Rewrites every token endpoint JSON answer, success or error. */
  readonly rewriteTokenResponse?: (body: Record<string, unknown>) => Record<string, unknown>
}

/** The tenant of the `oracle-health` mode (the id of Oracle Health's public sandbox tenant). */
export const oracleHealthTenant = 'ec2458f2-1e24-41c8-b71b-0e701af7583d'

const standard: VendorBehaviour = { fhirPath: '/fhir' }

const behaviours: Readonly<Record<SandboxVendor, VendorBehaviour>> = {
  epic: {
    fhirPath: '/api/FHIR/R4',
    rewriteTokenResponse: (body) => {
      if (body.error === 'invalid_client') return { ...body, error_description: null }
      if (typeof body.access_token !== 'string') return body
      const rewritten: Record<string, unknown> = { ...body, loginDepartment: '1700801' }
      if (typeof body.need_patient_banner === 'boolean')
        rewritten.need_patient_banner = String(body.need_patient_banner)
      if (typeof body.patient === 'string') rewritten['__epic.dstu2.patient'] = `T${body.patient}`
      return rewritten
    },
  },
  'oracle-health': {
    fhirPath: `/r4/${oracleHealthTenant}`,
    rootDiscoveryStatus: 502,
    rewriteTokenResponse: (body) =>
      typeof body.error === 'string'
        ? {
            ...body,
            error_uri: `urn:cerner:error:authorization-server:oauth2:token:${body.error}`,
          }
        : body,
  },
  athenahealth: {
    fhirPath: '/fhir/r4',
    discovery: {
      document: (document) => {
        delete (document as Record<string, unknown>).code_challenge_methods_supported
        return undefined
      },
    },
  },
  generic: {
    fhirPath: '/fhir',
    discovery: { response: { contentType: 'text/plain; charset=utf-8' } },
    rewriteTokenResponse: (body) =>
      typeof body.token_type === 'string' ? { ...body, token_type: 'bearer' } : body,
  },
}

/** The behaviour of a vendor mode; the strict standard sandbox for `undefined`. */
export function vendorBehaviour(vendor: SandboxVendor | undefined): VendorBehaviour {
  return vendor === undefined ? standard : behaviours[vendor]
}
