import { randomBytes } from 'node:crypto'
import { parseClinicalScope } from './smart-scopes.js'

/** What an EHR launch binds: the context the EHR was showing when it launched the app. */
export interface LaunchRequest {
  /** Patient id in context, e.g. `patient-1`. */
  readonly patient: string
  /** Encounter id in context, when the EHR had one open. */
  readonly encounter?: string
  /**
   * Whether the app must show its own patient banner. Defaults to `false`: the EHR that launched
   * the app already shows one.
   */
  readonly needPatientBanner?: boolean
}

/**
 * The launch context a grant carries, returned beside the access token (`patient`,
 * `encounter`, `need_patient_banner`, `smart_style_url`).
 */
export interface LaunchContext {
  readonly patient?: string
  readonly encounter?: string
  readonly needPatientBanner: boolean
}

/** The opaque `launch` values a sandbox issued, and what each one binds. */
export class LaunchRegistry {
  readonly #launches = new Map<string, LaunchRequest>()

  /** Stores a launch and returns its opaque `launch` value (128 random bits, base64url). */
  create(request: LaunchRequest): string {
    const launch = randomBytes(16).toString('base64url')
    this.#launches.set(launch, { ...request })
    return launch
  }

  find(launch: string): LaunchRequest | undefined {
    return this.#launches.get(launch)
  }

  clear(): void {
    this.#launches.clear()
  }
}

/** Inputs of {@link resolveLaunchContext}. */
export interface LaunchContextInput {
  /** The scopes the authorization grants. */
  readonly scopes: readonly string[]
  /** The EHR launch named by the `launch` parameter, if any. */
  readonly launch: LaunchRequest | undefined
  /** The patient the sandbox "picks" in a standalone launch. */
  readonly standalonePatient: string
}

/**
 * Decides the launch context of an authorization.
 *
 * - EHR launch (`launch` parameter and `launch` scope): the launch's patient and encounter;
 *   `need_patient_banner` as the launch says (default `false`).
 * - Standalone launch: `launch/patient` or any `patient/` scope selects the sandbox's
 *   standalone patient (the patient picker of a real server), with `need_patient_banner: true`.
 *   `launch/encounter` alone gives no encounter: the sandbox does not advertise
 *   `context-standalone-encounter`.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html#scopes-for-requesting-context-data
 */
export function resolveLaunchContext(input: LaunchContextInput): LaunchContext {
  if (input.launch !== undefined && input.scopes.includes('launch')) {
    return {
      patient: input.launch.patient,
      ...(input.launch.encounter === undefined ? {} : { encounter: input.launch.encounter }),
      needPatientBanner: input.launch.needPatientBanner ?? false,
    }
  }
  const wantsPatient =
    input.scopes.includes('launch/patient') ||
    input.scopes.some((scope) => parseClinicalScope(scope)?.context === 'patient')
  if (wantsPatient) return { patient: input.standalonePatient, needPatientBanner: true }
  return { needPatientBanner: false }
}
