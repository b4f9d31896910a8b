/**
 * Which fhir-auth entries each published package's sources may import (docs/architecture.md):
 * smart and udap only core (never each other), the backends only core's public entries for
 * backends — `core/essentials` (the main entry without the request path), `core/backend` and its
 * load-time subsets `core/signing`, `core/verification`, `core/private-keys` (never `core/internal`: a third-party backend could not use it either) — the
 * client the library packages, the CLI what it declares. Deep imports past an `exports` entry are
 * refused everywhere.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..', '..')

const core = [
  '@fhir-auth/core',
  // The main entry without the request path: what code loaded up front imports (ADR 0012).
  '@fhir-auth/core/essentials',
  '@fhir-auth/core/jws',
  '@fhir-auth/core/signing',
  '@fhir-auth/core/internal',
  '@fhir-auth/core/internal/checks',
  '@fhir-auth/core/internal/on-demand',
  '@fhir-auth/core/internal/signing',
  // What code loaded up front imports from `core/essentials`, without what only lazy code uses.
  '@fhir-auth/core/internal/up-front',
  // SMART scopes as data (`parseScopes`), which `TokenSet.grantedScopes` reads through core.
  '@fhir-auth/core/scopes',
]
const backendEntries = [
  '@fhir-auth/core',
  '@fhir-auth/core/essentials',
  '@fhir-auth/core/backend',
  '@fhir-auth/core/signing',
  '@fhir-auth/core/verification',
  '@fhir-auth/core/private-keys',
]

const allowed: Readonly<Record<string, readonly string[]>> = {
  core: [],
  smart: core,
  // UDAP checks its own certificate chain with the path policy (DESIGN §11).
  // …and fetches revocation information for it (issue 30).
  udap: [...core, '@fhir-auth/core/backend', '@fhir-auth/core/revocation'],
  'crypto-node': backendEntries,
  'crypto-webcrypto': backendEntries,
  'store-redis': ['@fhir-auth/core', '@fhir-auth/core/internal'],
  client: [
    ...core,
    // ID token validation, loaded only when an ID token is validated.
    '@fhir-auth/core/oidc',
    // `publicJwks`, re-exported for apps that publish keys; nothing else in the client uses it.
    '@fhir-auth/core/keys',
    '@fhir-auth/smart',
    '@fhir-auth/smart/launch',
    // `isTokenResponseValid`, which `Client` offers synchronously: up front, without the launch path.
    '@fhir-auth/smart/token-response-check',
    // Backend services and registration, loaded when they are first used.
    '@fhir-auth/smart/backend-services',
    '@fhir-auth/smart/registration',
    '@fhir-auth/udap',
    '@fhir-auth/crypto-node',
    '@fhir-auth/crypto-webcrypto',
  ],
  // The web layer sits on the client only (it never reaches below it).
  web: ['@fhir-auth/client'],
  cli: [
    '@fhir-auth/client',
    '@fhir-auth/core',
    '@fhir-auth/core/backend',
    '@fhir-auth/smart',
    '@fhir-auth/udap',
    '@fhir-auth/crypto-node',
  ],
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

describe('package boundaries', () => {
  it.each(Object.keys(allowed))('%s imports only the fhir-auth entries it may', (name) => {
    const permitted = allowed[name] as readonly string[]
    const violations: string[] = []
    for (const file of sourceFiles(join(root, 'packages', name, 'src'))) {
      // Code only: examples in comments import what a user would.
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')
      for (const match of text.matchAll(
        /(?:from\s*|import\s*\(\s*)['"](@fhir-auth\/[^'"]+)['"]/g,
      )) {
        const specifier = match[1] as string
        if (!permitted.includes(specifier)) violations.push(`${relative(root, file)}: ${specifier}`)
      }
    }
    expect(violations, violations.join('\n')).toEqual([])
  })
})
