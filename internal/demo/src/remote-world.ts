/** What the `--base-url` walk works with: the server and the caller's trust inputs. */
import type { UdapTrustOptions } from '@fhir-auth/client'

/** A real server and the trust inputs given on the command line. */
export interface RemoteWorld {
  readonly baseUrl: string
  /** The base URL is on a loopback host, where plain HTTP is allowed (development servers). */
  readonly loopback: boolean
  readonly trust: UdapTrustOptions
}
