import {
  ConfigurationError,
  type JwsSigner,
  type PrivateKeyInput,
} from '@fhir-auth/core/essentials'
import { lazy, requireNonBlankString } from '@fhir-auth/core/internal'
import { checkBackendVersion } from '@fhir-auth/core/internal/signing'
import type { CredentialOverrides } from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import type { BackendTokenSigning } from './backend-token.js'

/**
 * Signers for SMART `private_key_jwt` assertions (confidential asymmetric clients and backend
 * services). Loaded on demand, with the backend services operations: public and symmetric
 * clients never carry it.
 *
 * The configured key is imported once and reused (importing parses PEM and builds a key object:
 * work that must not sit on every token request); per-call keys are imported per call. A failed
 * import is not kept.
 *
 * @internal
 */
export class SmartSigning implements BackendTokenSigning {
  readonly #context: ProtocolContext
  /** The configured key and kid (checked by `signer`), imported once. */
  readonly #configured = lazy(() =>
    this.#import(
      this.#context.config.privateKey as PrivateKeyInput,
      this.#context.config.kid as string,
    ),
  )

  constructor(context: ProtocolContext) {
    this.#context = context
  }

  /** The signer for the per-call key and kid, else the configured ones. */
  async signer(
    overrides: Partial<Pick<CredentialOverrides, 'privateKey' | 'kid'>>,
  ): Promise<JwsSigner> {
    const { config } = this.#context
    const perCallKey = overrides.privateKey ?? undefined
    if (
      perCallKey !== undefined &&
      typeof perCallKey !== 'string' &&
      typeof perCallKey !== 'object'
    ) {
      throw new ConfigurationError({
        invalidAttribute: 'privateKey',
        invalidValue: `a ${typeof perCallKey}`,
      })
    }
    const key: PrivateKeyInput | undefined = perCallKey ?? config.privateKey
    if (key === undefined) throw new ConfigurationError({ invalidAttribute: 'privateKey' })
    const kid = requireNonBlankString(
      this.#context.checks.optionalString(overrides.kid, 'kid') ?? config.kid,
      'kid',
      false,
    )
    if (perCallKey !== undefined || overrides.kid !== undefined) return this.#import(key, kid)
    return this.#configured()
  }

  async #import(key: PrivateKeyInput, kid: string): Promise<JwsSigner> {
    const backend = await this.#context.cryptoBackend()
    checkBackendVersion(backend)
    const signer = await backend.importSigner(key, {
      profile: 'smart',
      algorithm: this.#context.config.jwtAlgorithm,
      kid,
    })
    return withKid(signer, kid)
  }
}

/**
 * A signer whose `kid` is the one the caller configured: it names the key the server
 * registered, so it wins over whatever a ready-made signer says.
 */
export function withKid(signer: JwsSigner, kid: string): JwsSigner {
  if (signer.kid === kid) return signer
  return {
    alg: signer.alg,
    kid,
    certificateChain: signer.certificateChain,
    sign: (input) => signer.sign(input),
  }
}

/**
 * Backend services in the same chunk as signing: every backend token is signed, so an app that
 * asks for one loads a chunk less, and an app that signs only its launches loads little more.
 */
export { backendTokenIdentity, requestBackendToken } from './backend-token.js'
