import type { CryptoBackend, JwsSigner, PrivateKeyInput } from '@fhir-auth/core'

/**
 * A signer whose `kid` is the one the caller configured. A configured or per-call `kid` names
 * the key the server registered, so it wins over whatever a ready-made signer says.
 */
export function withKid(signer: JwsSigner, kid: string | undefined): JwsSigner {
  if (kid === undefined || signer.kid === kid) return signer
  return {
    alg: signer.alg,
    kid,
    certificateChain: signer.certificateChain,
    sign: (input) => signer.sign(input),
  }
}

/**
 * Imports the configured SMART key once and reuses the signer (importing parses PEM and builds
 * a key object: work that must not sit on every token request). A failed import is not kept.
 */
export class SmartSignerCache {
  #cached: Promise<JwsSigner> | undefined

  async get(
    backend: CryptoBackend,
    key: PrivateKeyInput,
    kid: string,
    algorithm: string | undefined,
  ): Promise<JwsSigner> {
    if (this.#cached === undefined) {
      const pending = importSmartSigner(backend, key, kid, algorithm)
      this.#cached = pending
      pending.catch(() => {
        if (this.#cached === pending) this.#cached = undefined
      })
    }
    return this.#cached
  }
}

/** Turns a private key into a SMART signer (RS384 or ES384) carrying `kid`. */
export async function importSmartSigner(
  backend: CryptoBackend,
  key: PrivateKeyInput,
  kid: string,
  algorithm: string | undefined,
): Promise<JwsSigner> {
  const signer = await backend.importSigner(key, { profile: 'smart', algorithm, kid })
  return withKid(signer, kid)
}
