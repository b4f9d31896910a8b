/// <reference path="./oidc-provider.d.ts" />
import type * as OidcProviderModule from 'oidc-provider'

/** The `oidc-provider` module namespace: the `Provider` class and the `errors` classes. */
export type OidcProviderExports = typeof OidcProviderModule

/**
 * The one start-up message dropped: oidc-provider 9 asks for Node 22 LTS when imported on
 * Node 20, where everything the sandbox uses works (see research/smart-anchors.md §B.4).
 */
const unsupportedRuntimeWarning = 'Unsupported runtime'

let loading: Promise<OidcProviderExports> | undefined

/**
 * Imports `oidc-provider` once per process, without its Node 20 "Unsupported runtime" warning.
 *
 * The warning is printed by the module body itself, so it can only be filtered around the
 * first import; every other message (including other oidc-provider warnings) passes through.
 */
export function loadOidcProvider(): Promise<OidcProviderExports> {
  loading ??= importQuietly()
  return loading
}

async function importQuietly(): Promise<OidcProviderExports> {
  const originalWarn = console.warn
  console.warn = (...parts: unknown[]) => {
    if (typeof parts[0] === 'string' && parts[0].includes(unsupportedRuntimeWarning)) return
    originalWarn(...parts)
  }
  try {
    return await import('oidc-provider')
  } finally {
    console.warn = originalWarn
  }
}
