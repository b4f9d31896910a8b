/**
 * SMART scopes through `Client` against the SMART sandbox (issue 28): a server that narrows the
 * grant (and answers a v2 request with a v1 scope, as EHRs did before SMART 2) — `scope.narrowed`
 * names only what is really missing, `grantedScopes` says what the grant permits, and a refresh
 * outside the grant is refused before anything is sent; a server that advertises `permission-v1`
 * only gets v1 scopes from a client with `scopeVersion: 'auto'`, for launches and backend tokens.
 */
import {
  type Client,
  type ClientOptions,
  ConfigurationError,
  type Logger,
  memoryStore,
  parseScopes,
  TokenSet,
} from '@fhir-auth/client'
import { generateClientKeys } from '@fhir-auth/sandbox'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterEach, describe, expect, it } from 'vitest'
import { requestsTo } from './support/flows.js'
import {
  appClient,
  backendClient,
  type SmartFixture,
  startSmartFixture,
} from './support/smart-fixture.js'

let fixture: SmartFixture | undefined

afterEach(async () => {
  await fixture?.sandbox.close()
  fixture = undefined
})

const asked = [
  'launch/patient',
  'patient/Observation.rs',
  'patient/Condition.rs',
  'openid',
  'fhirUser',
  'offline_access',
]

/** A logger that keeps the warnings. */
function recordingLogger(): Logger & { warnings: { message: string; fields: unknown }[] } {
  const warnings: { message: string; fields: unknown }[] = []
  return {
    warnings,
    info() {},
    error() {},
    warn: (message, fields) => void warnings.push({ message, fields }),
  }
}

/** A launch played through the sandbox into a session. */
async function signIn(client: Client, started: SmartFixture) {
  const store = memoryStore()
  const begun = await client.beginAuthorization({ store })
  const result = await started.sandbox.authorize({ url: begun.authUrl })
  if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
  return client.completeAuthorization(result.redirectUrl.href, { store })
}

const tokenRequests = (started: SmartFixture) =>
  requestsTo(started.sandbox, started.sandbox.endpoints.token).length

describe('a server that narrows the grant', () => {
  async function narrowedSession() {
    // Observation answered in v1 (the same permission), Condition left out.
    const started = await startSmartFixture({
      narrowGrant: (granted) =>
        granted
          .filter((scope) => scope !== 'patient/Condition.rs')
          .map((scope) =>
            scope === 'patient/Observation.rs' ? 'patient/Observation.read' : scope,
          ),
    })
    fixture = started
    const logger = recordingLogger()
    const client = appClient(started, 'public', { scopes: asked }, { logger })
    const session = await signIn(client, started)
    return { started, logger, session }
  }

  it('warns scope.narrowed with what is missing by meaning, and grantedScopes says what is permitted', async () => {
    const { logger, session } = await narrowedSession()
    const narrowed = logger.warnings.filter(
      ({ fields }) => (fields as { event?: string })?.event === 'scope.narrowed',
    )
    expect(narrowed).toHaveLength(1)
    expect(narrowed[0]?.fields).toEqual({
      event: 'scope.narrowed',
      missing: ['patient/Condition.rs'],
    })
    const granted = session.tokens.grantedScopes
    expect(granted.allows('patient', 'Observation', 's')).toBe(true)
    expect(granted.allows('patient', 'Condition', 'r')).toBe(false)
    expect(granted.launch.patient).toBe(true)
    expect(parseScopes(asked).compare(granted)).toEqual({
      missing: ['patient/Condition.rs'],
      extra: [],
    })
  })

  it('refuses a refresh for a scope outside the grant with a ConfigurationError, sending nothing', async () => {
    const { started, session } = await narrowedSession()
    const before = started.sandbox.requests.length
    const failure = await failureOf(
      session.refresh({ scopes: ['patient/Condition.rs', 'offline_access'] }),
      ConfigurationError,
    )
    expect(failure).toMatchObject({
      invalidAttribute: 'scopes',
      invalidValue: ['patient/Condition.rs'],
    })
    expect(started.sandbox.requests.length).toBe(before)
  })

  it('sends a refresh within the grant by meaning (rs asked, read granted)', async () => {
    const { started, session } = await narrowedSession()
    const before = tokenRequests(started)
    const tokens = await session.refresh({ scopes: ['patient/Observation.rs', 'offline_access'] })
    expect(tokenRequests(started)).toBe(before + 1)
    expect(tokens.grantedScopes.allows('patient', 'Observation', 'r')).toBe(true)
  })
})

describe('a token response without scope (RFC 6749 §5.1, §6)', () => {
  /** The sandbox's token responses from now on without `scope`. */
  function omitScope(started: SmartFixture) {
    started.sandbox.setTokenEndpointHooks({
      rewriteResponse: ({ scope: _omitted, ...body }) => body,
    })
  }

  async function signedInWithGrant(narrowGrant?: (granted: readonly string[]) => string[]) {
    const started = await startSmartFixture(narrowGrant === undefined ? {} : { narrowGrant })
    fixture = started
    const logger = recordingLogger()
    const session = await signIn(
      appClient(started, 'public', { scopes: asked }, { logger }),
      started,
    )
    return { started, logger, session }
  }

  it('grants a narrower refresh the scopes it asked for, and a plain refresh after it keeps them', async () => {
    const { started, logger, session } = await signedInWithGrant()
    omitScope(started)
    const narrower = ['patient/Observation.rs', 'offline_access']
    const tokens = await session.refresh({ scopes: narrower })
    expect(tokens.scopes).toEqual(narrower)
    expect(session.tokens.grantedScopes.allows('patient', 'Condition', 'r')).toBe(false)
    expect(session.tokens.grantedScopes.allows('patient', 'Observation', 'r')).toBe(true)
    const again = await session.refresh()
    expect(again.scopes).toEqual(narrower)
    // And so after the tokens are persisted and read back.
    const resumed = TokenSet.deserialize(again.serialize())
    expect(resumed?.scopes).toEqual(narrower)
    expect(logger.warnings.map(({ fields }) => (fields as { event?: string })?.event)).toEqual([])
  })

  it('keeps the previous grant through a plain refresh, not the scopes first asked for', async () => {
    const { started, session } = await signedInWithGrant((granted) =>
      granted.filter((scope) => scope !== 'patient/Condition.rs'),
    )
    const granted = asked.filter((scope) => scope !== 'patient/Condition.rs')
    expect(session.tokens.scopes).toEqual(granted)
    omitScope(started)
    const tokens = await session.refresh()
    expect(tokens.scopes).toEqual(granted)
    expect(tokens.grantedScopes.allows('patient', 'Condition', 'r')).toBe(false)
  })
})

describe('a launch the caller kept, begun with customScopes', () => {
  it('compares the grant with the scopes the launch asked for, not the configured ones', async () => {
    const started = await startSmartFixture()
    fixture = started
    const logger = recordingLogger()
    const client = appClient(started, 'public', { scopes: asked }, { logger })
    const custom = asked.filter((scope) => scope !== 'patient/Condition.rs')
    const begun = await client.beginAuthorization({ customScopes: custom })
    const result = await started.sandbox.authorize({ url: begun.authUrl })
    if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
    const session = await client.completeAuthorization(result.redirectUrl.href, {
      state: begun.state,
      codeVerifier: begun.codeVerifier as string,
      nonce: begun.nonce,
    })
    expect(session.tokens.scopes).toEqual(custom)
    expect(session.tokens.requestedScopes).toEqual(custom)
    expect(logger.warnings.map(({ fields }) => (fields as { event?: string })?.event)).toEqual([])
  })
})

describe("a server that advertises permission-v1 only, and scopeVersion: 'auto'", () => {
  const authorizeScope = (started: SmartFixture) => {
    const [request] = requestsTo(started.sandbox, started.sandbox.endpoints.authorization)
    return request?.query?.scope
  }

  it('launches with v1 scopes; as-configured sends them as written', async () => {
    const started = await startSmartFixture({ scopeVersions: ['v1'] })
    fixture = started
    const options: ClientOptions = { scopeVersion: 'auto', logger: recordingLogger() }
    const session = await signIn(appClient(started, 'public', { scopes: asked }, options), started)
    expect(authorizeScope(started)).toBe(
      'launch/patient patient/Observation.read patient/Condition.read openid fhirUser offline_access',
    )
    expect(session.tokens.grantedScopes.allows('patient', 'Condition', 's')).toBe(true)

    started.sandbox.clearRequests()
    await signIn(appClient(started, 'public', { scopes: asked }), started)
    expect(authorizeScope(started)).toBe(asked.join(' '))
  })

  it('asks for backend tokens with v1 scopes', async () => {
    const keys = await generateClientKeys('ES384')
    const started = await startSmartFixture({
      scopeVersions: ['v1'],
      clients: [
        {
          client_id: 'backend-v1',
          token_endpoint_auth_method: 'private_key_jwt',
          grant_types: ['client_credentials'],
          jwks: { keys: [keys.publicJwk] },
          scope: 'system/Patient.read',
        },
      ],
    })
    fixture = started
    const client = backendClient(
      started,
      'ES384',
      {
        clientId: 'backend-v1',
        privateKey: keys.privateKeyPem,
        kid: keys.kid,
        scopes: ['system/Patient.rs'],
      },
      { scopeVersion: 'auto' },
    )
    const response = await client.requestBackendToken()
    const [request] = requestsTo(started.sandbox, started.sandbox.endpoints.token)
    expect(request?.form?.scope).toBe('system/Patient.read')
    expect(response.scope).toBe('system/Patient.read')
  })

  it('sends v2 to a server with permission-v2 only', async () => {
    const started = await startSmartFixture()
    fixture = started
    const client = appClient(
      started,
      'public',
      { scopes: ['launch/patient', 'patient/*.read', 'openid', 'fhirUser'] },
      { scopeVersion: 'auto' },
    )
    await signIn(client, started)
    expect(authorizeScope(started)).toBe('launch/patient patient/*.rs openid fhirUser')
  })
})
