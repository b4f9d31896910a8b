import { ConfigurationError } from '@fhir-auth/core'

/**
 * The user a sandbox signs in. The sandbox approves every authorization as this user (no login
 * page), unless Tiered OAuth maps an IdP identity to another one.
 */
export interface UdapSandboxUser {
  /** The user's id at this server: `sub` of the ID tokens it issues. */
  readonly sub: string
  /** `name` claim of ID tokens when the `profile` scope is granted. */
  readonly name?: string
  /**
   * `fhirUser` claim of ID tokens when the `fhirUser` scope is granted: relative to the FHIR
   * base URL (`Practitioner/1`) or absolute; ID tokens always carry the absolute URL.
   */
  readonly fhirUser?: string
}

/** The user of a sandbox started without the `user` option. */
export const defaultSandboxUser: UdapSandboxUser = Object.freeze({
  sub: 'udap-user-1',
  name: 'Sandbox User',
  fhirUser: 'Practitioner/practitioner-1',
})

/**
 * Checks a {@link UdapSandboxUser} given as an option or returned by `mapUser`.
 *
 * @throws {ConfigurationError} `invalidAttribute` = `attribute` when `sub` is not a non-empty
 *   string or `name`/`fhirUser` are not strings.
 */
export function readSandboxUser(value: unknown, attribute: string): UdapSandboxUser {
  const user = value as Partial<UdapSandboxUser> | null
  if (
    typeof user !== 'object' ||
    user === null ||
    typeof user.sub !== 'string' ||
    user.sub === '' ||
    (user.name !== undefined && typeof user.name !== 'string') ||
    (user.fhirUser !== undefined && typeof user.fhirUser !== 'string')
  ) {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      invalidValue: value,
      message: `${attribute} must be { sub: non-empty string, name?: string, fhirUser?: string }`,
    })
  }
  return {
    sub: user.sub,
    ...(user.name === undefined ? {} : { name: user.name }),
    ...(user.fhirUser === undefined ? {} : { fhirUser: user.fhirUser }),
  }
}
