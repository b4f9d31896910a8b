/**
 * The SMART sandbox's scope switches: `scopeVersions` decides which of `permission-v1` and
 * `permission-v2` discovery advertises; `narrowGrant` rewrites the `scope` of successful token
 * responses. Bad values are refused when the sandbox starts.
 */
import { ConfigurationError } from '@fhir-auth/core'
import { afterEach, describe, expect, it } from 'vitest'
import { type SmartSandbox, startSmartSandbox } from '../../src/index.js'
import { clientAssertionType, signClientAssertion } from './support/client-assertion.js'
import { getJson, postForm } from './support/http.js'
import { generateClientKeys } from './support/imports.js'

let sandbox: SmartSandbox | undefined
afterEach(async () => {
  await sandbox?.close()
  sandbox = undefined
})

const permissions = async (started: SmartSandbox) => {
  const reply = await getJson(started.endpoints.discovery)
  return (reply.body as { capabilities: string[] }).capabilities.filter((name) =>
    name.startsWith('permission-v'),
  )
}

describe('scopeVersions', () => {
  it.each([
    [undefined, ['permission-v2']],
    [['v1'], ['permission-v1']],
    [
      ['v1', 'v2'],
      ['permission-v1', 'permission-v2'],
    ],
    [[], []],
  ] as const)('%j advertises %j', async (scopeVersions, expected) => {
    sandbox = await startSmartSandbox(scopeVersions === undefined ? {} : { scopeVersions })
    expect(await permissions(sandbox)).toEqual(expected)
  })

  it.each([['v3'], 'v1', [1]])('refuses %j', async (scopeVersions) => {
    await expect(
      startSmartSandbox({ scopeVersions: scopeVersions as unknown as ['v1'] }),
    ).rejects.toBeInstanceOf(ConfigurationError)
  })
})

describe('narrowGrant', () => {
  it('rewrites the scope of a successful client_credentials response, not of an error', async () => {
    const keys = await generateClientKeys('ES384')
    const started = await startSmartSandbox({
      narrowGrant: (granted) => granted.filter((scope) => scope !== 'system/Observation.rs'),
      clients: [
        {
          client_id: 'backend',
          token_endpoint_auth_method: 'private_key_jwt',
          grant_types: ['client_credentials'],
          jwks: { keys: [keys.publicJwk] },
          scope: 'system/Patient.rs system/Observation.rs',
        },
      ],
    })
    sandbox = started
    const request = async (scope: string) =>
      postForm(started.endpoints.token, {
        grant_type: 'client_credentials',
        scope,
        client_assertion_type: clientAssertionType,
        client_assertion: await signClientAssertion(keys, 'backend', started.endpoints.token),
      })
    const granted = await request('system/Patient.rs system/Observation.rs')
    expect(granted.status).toBe(200)
    expect(granted.body.scope).toBe('system/Patient.rs')
    // An error response is left as the provider wrote it (nothing granted to narrow).
    const refused = await request('system/Observation.rs system/Encounter.rs')
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe('invalid_scope')
  })
})
