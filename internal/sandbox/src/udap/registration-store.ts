import { randomBytes } from 'node:crypto'
import type { RegisteredClientMetadata } from './client-metadata-rules.js'
import type { PkiObject } from './pki-object.js'

/** One client registered through UDAP DCR. */
export interface UdapRegistration {
  readonly clientId: string
  /** The software statement's `iss`: the client URI, a SAN URI of its certificate. */
  readonly clientUri: string
  /** The accepted metadata; `grant_types` is `[]` once cancelled. */
  readonly metadata: RegisteredClientMetadata
  /** The certificate (`x5c[0]`) of the last accepted software statement. */
  readonly certificate: PkiObject
  readonly cancelled: boolean
  readonly registeredAt: Date
  readonly updatedAt: Date
}

/** The result of {@link RegistrationStore.register}. */
export interface RegisterOutcome {
  readonly registration: UdapRegistration
  /** `true` for a new `iss` (answer 201), `false` for a modification (answer 200). */
  readonly created: boolean
}

/** How a {@link RegistrationStore} answers modifications. */
export interface RegistrationStoreOptions {
  /**
   * A modification gets a new `client_id` and the old one is cancelled (IG STU2 §3.4: a server
   * SHOULD keep the `client_id`; one that does not SHALL cancel the old one).
   */
  readonly newClientIdOnModification?: boolean
}

/**
 * Registrations keyed by client URI (`iss`): IG STU2 §3.4 makes a second valid statement with
 * the same `iss` a modification that keeps the `client_id` (or, with
 * `newClientIdOnModification`, replaces it), and one with `grant_types: []` a cancellation.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#modifying-and-cancelling-registrations
 */
export class RegistrationStore {
  readonly #byClientUri = new Map<string, UdapRegistration>()
  readonly #clientUriById = new Map<string, string>()
  readonly #newClientIdOnModification: boolean

  constructor(options: RegistrationStoreOptions = {}) {
    this.#newClientIdOnModification = options.newClientIdOnModification === true
  }

  /** Registers a new client or replaces the registration with the same `clientUri`. */
  register(
    clientUri: string,
    metadata: RegisteredClientMetadata,
    certificate: PkiObject,
    now: Date,
  ): RegisterOutcome {
    const existing = this.#byClientUri.get(clientUri)
    const keepsClientId = existing !== undefined && !this.#newClientIdOnModification
    if (existing !== undefined && !keepsClientId) {
      // The old client_id is cancelled: it names no registration any more.
      this.#clientUriById.delete(existing.clientId)
    }
    const registration: UdapRegistration = {
      clientId: keepsClientId ? existing.clientId : `udap-${randomBytes(12).toString('base64url')}`,
      clientUri,
      metadata,
      certificate,
      cancelled: false,
      registeredAt: existing?.registeredAt ?? now,
      updatedAt: now,
    }
    this.#store(registration)
    return { registration, created: existing === undefined }
  }

  /** Cancels the registration of `clientUri`; `undefined` when there is none. */
  cancel(clientUri: string, certificate: PkiObject, now: Date): UdapRegistration | undefined {
    const existing = this.#byClientUri.get(clientUri)
    if (existing === undefined) return undefined
    const cancelled: UdapRegistration = {
      ...existing,
      metadata: { ...existing.metadata, grant_types: [] },
      certificate,
      cancelled: true,
      updatedAt: now,
    }
    this.#store(cancelled)
    return cancelled
  }

  /** The registration with this `client_id`, cancelled or not. */
  byClientId(clientId: string): UdapRegistration | undefined {
    const clientUri = this.#clientUriById.get(clientId)
    return clientUri === undefined ? undefined : this.#byClientUri.get(clientUri)
  }

  /** A snapshot keyed by `client_id`. */
  snapshot(): ReadonlyMap<string, UdapRegistration> {
    return new Map([...this.#byClientUri.values()].map((entry) => [entry.clientId, entry]))
  }

  #store(registration: UdapRegistration): void {
    this.#byClientUri.set(registration.clientUri, registration)
    this.#clientUriById.set(registration.clientId, registration.clientUri)
  }
}
