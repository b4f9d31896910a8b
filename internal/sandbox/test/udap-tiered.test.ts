import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  startTieredOAuthSandboxes,
  startUdapSandbox,
  type TieredOAuthSandboxes,
  type UdapSandbox,
} from '../src/index.js'
import { sharedServerKeyPair } from './support/server-key.js'
import {
  appRedirectUri,
  authorizationParameters,
  authorizationUrl,
  type CodeClient,
  exchangeCode,
  pkcePair,
  registerCodeClient,
} from './udap-code-flow-client.js'
import { discover } from './udap-test-client.js'

let sandboxes: TieredOAuthSandboxes
let dataHolder: UdapSandbox
let idp: UdapSandbox
let app: CodeClient

beforeAll(async () => {
  sandboxes = await startTieredOAuthSandboxes({
    dataHolder: { serverKeyPair: await sharedServerKeyPair() },
  })
  dataHolder = sandboxes.dataHolder
  idp = sandboxes.identityProvider
  app = await registerCodeClient(dataHolder, { scope: 'openid udap fhirUser user/*.rs' })
})

afterAll(async () => {
  await sandboxes.close()
})

function tieredParameters(
  overrides: Record<string, string | undefined> = {},
  client = app,
): { parameters: Record<string, string>; verifier: string } {
  const { verifier, challenge } = pkcePair()
  return {
    verifier,
    parameters: authorizationParameters(client, challenge, {
      scope: 'udap openid user/Patient.rs',
      idp: idp.issuer,
      ...overrides,
    }),
  }
}

async function tieredAuthorize(
  overrides: Record<string, string | undefined> = {},
  options: { decision?: 'approve' | 'deny'; target?: UdapSandbox; client?: CodeClient } = {},
) {
  const { parameters, verifier } = tieredParameters(overrides, options.client)
  const target = options.target ?? dataHolder
  const result = await target.authorize(
    { url: authorizationUrl(target, parameters) },
    options.decision === undefined ? {} : { decision: options.decision },
  )
  return { result, parameters, verifier }
}

describe('Tiered OAuth: the two sandboxes', () => {
  it('advertise their roles in signed metadata, each with its own PKI', async () => {
    const holderMetadata = (await (await discover(dataHolder)).json()) as Record<string, unknown>
    const idpMetadata = (await (await discover(idp)).json()) as Record<string, unknown>
    expect(holderMetadata.udap_profiles_supported).toContain('udap_to')
    expect(holderMetadata.scopes_supported).toContain('udap')
    expect(idpMetadata.udap_profiles_supported).toContain('udap_to')
    expect(idpMetadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'udap']))
    expect(idpMetadata.grant_types_supported).toEqual(['authorization_code'])
    expect(dataHolder.community).not.toBe(idp.community)
    expect(dataHolder.trust.anchors[0]?.pem).not.toBe(idp.trust.anchors[0]?.pem)
    const configuration = (await (
      await fetch(idp.endpoints.openidConfiguration as string)
    ).json()) as Record<string, unknown>
    expect(configuration).toMatchObject({ issuer: idp.issuer, jwks_uri: idp.endpoints.jwks })
  })
})

describe('Tiered OAuth: trust added at run time', () => {
  it('refuses trust input that does not parse, and keeps none of it', async () => {
    expect(() => idp.trustClients({ anchors: [new Uint8Array([1, 2, 3])], crls: [] })).toThrow(
      expect.objectContaining({ invalidAttribute: 'clientTrust' }),
    )
    expect(() => dataHolder.trustIdentityProviders({ anchors: ['no PEM here'], crls: [] })).toThrow(
      expect.objectContaining({ invalidAttribute: 'trust.anchors' }),
    )
    const { result } = await tieredAuthorize()
    expect(result.code).toBeDefined()
  })
})

describe('Tiered OAuth: a successful login', () => {
  it('runs app → data holder → IdP → data holder → app, and the app exchanges its code', async () => {
    dataHolder.clearRequests()
    idp.clearRequests()
    const { result, parameters, verifier } = await tieredAuthorize({ nonce: 'app-nonce' })
    expect(result.error, result.errorDescription).toBeUndefined()
    expect(result.state).toBe(parameters.state)
    expect(`${result.redirectUrl?.origin}${result.redirectUrl?.pathname}`).toBe(appRedirectUri)

    // The data holder registered at the IdP as a UDAP client with its own certificate.
    const idpClientId = dataHolder.identityProviderClients.get(idp.issuer)
    const registration = idp.registrations.get(idpClientId as string)
    expect(registration).toMatchObject({
      clientUri: dataHolder.fhirBaseUrl,
      metadata: {
        grant_types: ['authorization_code'],
        scope: 'openid udap',
        redirect_uris: [dataHolder.endpoints.identityProviderCallback],
      },
    })
    expect(registration?.certificate.pem).toBe(dataHolder.serverCertificate.pem)

    // It sent the user to the IdP with openid udap, its own state, a nonce and PKCE S256.
    const atIdp = idp.authorizationRequests.at(-1)
    expect(atIdp).toMatchObject({
      clientId: idpClientId,
      outcome: 'code',
      unrecognizedParameters: [],
    })
    expect(atIdp?.parameters).toMatchObject({
      response_type: 'code',
      scope: 'openid udap',
      code_challenge_method: 'S256',
      redirect_uri: dataHolder.endpoints.identityProviderCallback,
    })
    expect(atIdp?.parameters.state).not.toBe(parameters.state)
    expect(atIdp?.parameters.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/)

    // It exchanged the IdP's code with a UDAP authentication token, without extensions.
    const ant = idp.authenticationTokens.at(-1)
    expect(ant).toMatchObject({
      grantType: 'authorization_code',
      accepted: true,
      authorizationHeader: false,
      clientId: idpClientId,
      header: { alg: 'RS256' },
      claims: { iss: idpClientId, sub: idpClientId, aud: idp.endpoints.token },
      form: { udap: '1' },
    })
    expect(ant?.claims).not.toHaveProperty('extensions')
    const idpToken = idp.accessTokens.at(-1)
    expect((idpToken?.expiresAt.getTime() ?? 0) - Date.now()).toBeLessThanOrEqual(300_000)

    // It validated the ID token and mapped (iss, sub) to its local user.
    expect(dataHolder.tieredLogins.at(-1)).toMatchObject({
      identityProvider: idp.issuer,
      clientId: app.clientId,
      outcome: 'code',
      identityProviderClientId: idpClientId,
      nonce: atIdp?.parameters.nonce,
      identity: {
        issuer: idp.issuer,
        subject: 'udap-user-1',
        claims: { aud: idpClientId, nonce: atIdp?.parameters.nonce },
      },
      localUser: { sub: 'udap-user-1' },
    })
    expect(dataHolder.authorizationRequests.at(-1)).toMatchObject({
      outcome: 'identity-provider',
      identityProvider: idp.issuer,
    })

    const answer = await exchangeCode(dataHolder, app, { code: result.code as string, verifier })
    expect(answer.status).toBe(200)
    expect(answer.json.scope).toBe('udap openid user/Patient.rs')
    expect(decodeJwt(answer.json.id_token as string)).toMatchObject({
      iss: dataHolder.issuer,
      aud: app.clientId,
      nonce: 'app-nonce',
    })
  })

  it('registers with the IdP once, and maps identities with mapUser', async () => {
    const mapped = await startTieredOAuthSandboxes({
      dataHolder: {
        serverKeyPair: await sharedServerKeyPair(),
        tieredOAuth: {
          mapUser: (identity) =>
            identity.subject === 'udap-user-1'
              ? { sub: `local-of-${identity.subject}`, fhirUser: 'Practitioner/42' }
              : undefined,
        },
      },
    })
    try {
      const client = await registerCodeClient(mapped.dataHolder, {
        scope: 'openid udap fhirUser user/*.rs',
      })
      for (let run = 0; run < 2; run += 1) {
        const { parameters, verifier } = tieredParameters(
          { idp: mapped.identityProvider.issuer, scope: 'udap openid fhirUser' },
          client,
        )
        const result = await mapped.dataHolder.authorize({
          url: authorizationUrl(mapped.dataHolder, parameters),
        })
        const answer = await exchangeCode(mapped.dataHolder, client, {
          code: result.code as string,
          verifier,
        })
        expect(decodeJwt(answer.json.id_token as string)).toMatchObject({
          sub: 'local-of-udap-user-1',
          fhirUser: `${mapped.dataHolder.fhirBaseUrl}/Practitioner/42`,
        })
      }
      expect(mapped.identityProvider.registrations.size).toBe(1)
      expect(mapped.identityProvider.requestCounts.registration).toBe(1)
    } finally {
      await mapped.close()
    }
  })

  it('works with an authorize-POST from the app', async () => {
    const { parameters } = tieredParameters()
    const result = await dataHolder.authorize({
      endpoint: dataHolder.endpoints.authorization as string,
      params: parameters,
    })
    expect(result).toMatchObject({ state: parameters.state })
    expect(result.code).toBeDefined()
  })

  it('is not used without the udap scope: idp alone means nothing (IG STU2 §6.1)', async () => {
    const before = dataHolder.tieredLogins.length
    const { result } = await tieredAuthorize({ scope: 'openid user/Patient.rs' })
    expect(result.code).toBeDefined()
    expect(dataHolder.tieredLogins.length).toBe(before)
    expect(dataHolder.authorizationRequests.at(-1)?.outcome).toBe('code')
  })
})

describe('Tiered OAuth: errors back to the app (IG STU2 §6, udap.org Tiered OAuth §3–4)', () => {
  it('invalid_idp for an IdP from a community the data holder does not trust', async () => {
    const stranger = await startUdapSandbox({
      identityProvider: true,
      serverKeyPair: await sharedServerKeyPair(),
    })
    try {
      const { result, parameters } = await tieredAuthorize({ idp: stranger.issuer })
      expect(result).toMatchObject({ error: 'invalid_idp', state: parameters.state })
      expect(result.errorDescription).toMatch(/not trusted/)
      expect(dataHolder.tieredLogins.at(-1)).toMatchObject({
        outcome: 'error',
        error: 'invalid_idp',
        failedStage: 'idp-metadata',
      })
      expect(stranger.requestCounts).toMatchObject({
        discovery: 1,
        registration: 0,
        authorization: 0,
      })
    } finally {
      await stranger.close()
    }
  })

  it('invalid_idp for an IdP that is not loopback, or does not offer openid and udap', async () => {
    const remote = await tieredAuthorize({ idp: 'https://idp.example.test/oidc' })
    expect(remote.result.error).toBe('invalid_idp')
    expect(remote.result.errorDescription).toMatch(/not a loopback URL/)

    const plainServer = await startUdapSandbox({
      grantTypes: ['authorization_code'],
      serverKeyPair: await sharedServerKeyPair(),
    })
    try {
      dataHolder.trustIdentityProviders(plainServer.trust)
      const plain = await tieredAuthorize({ idp: plainServer.issuer })
      expect(plain.result.error).toBe('invalid_idp')
      expect(plain.result.errorDescription).toMatch(/openid and udap/)
    } finally {
      await plainServer.close()
    }
  })

  it('access_denied when the user refuses at the IdP', async () => {
    const { result, parameters } = await tieredAuthorize({}, { decision: 'deny' })
    expect(result).toMatchObject({ error: 'access_denied', state: parameters.state })
    expect(dataHolder.tieredLogins.at(-1)).toMatchObject({ failedStage: 'idp-error' })
    expect(idp.authorizationRequests.at(-1)).toMatchObject({ error: 'access_denied' })
  })

  it('access_denied when the identity maps to no local user', async () => {
    const strict = await startTieredOAuthSandboxes({
      dataHolder: {
        tieredOAuth: { mapUser: () => undefined },
        serverKeyPair: await sharedServerKeyPair(),
      },
    })
    try {
      const client = await registerCodeClient(strict.dataHolder, { scope: 'openid udap user/*.rs' })
      const { parameters } = tieredParameters({ idp: strict.identityProvider.issuer }, client)
      const result = await strict.dataHolder.authorize({
        url: authorizationUrl(strict.dataHolder, parameters),
      })
      expect(result).toMatchObject({ error: 'access_denied', state: parameters.state })
      expect(strict.dataHolder.tieredLogins.at(-1)).toMatchObject({
        failedStage: 'user-mapping',
        identity: { subject: 'udap-user-1' },
      })
    } finally {
      await strict.close()
    }
  })

  it('server_error when the IdP returns a wrong or no state (hostile IdP)', async () => {
    for (const variant of ['wrong-state', 'missing-state'] as const) {
      idp.setHostile(variant)
      try {
        const { result, parameters } = await tieredAuthorize()
        expect(result, variant).toMatchObject({ error: 'server_error', state: parameters.state })
        expect(dataHolder.tieredLogins.at(-1)).toMatchObject({ failedStage: 'idp-state' })
      } finally {
        idp.setHostile(undefined)
      }
    }
  })

  it('invalid_idp when the IdP ID token has a wrong nonce or aud (hostile IdP)', async () => {
    for (const [variant, description] of [
      ['id-token-wrong-nonce', /nonce does not match/],
      ['id-token-wrong-aud', /aud does not name/],
    ] as const) {
      idp.setHostile(variant)
      try {
        const { result, parameters } = await tieredAuthorize()
        expect(result, variant).toMatchObject({ error: 'invalid_idp', state: parameters.state })
        expect(result.errorDescription).toMatch(description)
        expect(dataHolder.tieredLogins.at(-1)).toMatchObject({ failedStage: 'id-token' })
      } finally {
        idp.setHostile(undefined)
      }
    }
  })

  it('invalid_idp when only the unsigned IdP metadata lists udap: signed values win (IG STU2 §2.3)', async () => {
    idp.setHostile('signed-scopes-without-udap')
    try {
      const signed = await discover(idp)
      const document = (await signed.json()) as Record<string, unknown>
      expect(document.scopes_supported).toContain('udap')
      const { result, parameters } = await tieredAuthorize()
      expect(result).toMatchObject({ error: 'invalid_idp', state: parameters.state })
      expect(result.errorDescription).toMatch(/openid and udap in scopes_supported/)
      expect(dataHolder.tieredLogins.at(-1)).toMatchObject({ failedStage: 'idp-metadata' })
    } finally {
      idp.setHostile(undefined)
    }
  })

  it('invalid_idp without contacting the IdP when the data holder is hostile (invalid-idp)', async () => {
    idp.clearRequests()
    dataHolder.setHostile('invalid-idp')
    try {
      const { result, parameters } = await tieredAuthorize()
      expect(result).toMatchObject({ error: 'invalid_idp', state: parameters.state })
      expect(idp.requestCounts.discovery).toBe(0)
    } finally {
      dataHolder.setHostile(undefined)
    }
  })

  it('a wrong state to the app when the data holder is hostile (wrong-state)', async () => {
    dataHolder.setHostile('wrong-state')
    try {
      const { result, parameters } = await tieredAuthorize()
      expect(result.code).toBeDefined()
      expect(result.state).toBe(`${parameters.state}-other`)
    } finally {
      dataHolder.setHostile(undefined)
    }
  })

  it('invalid_scope when the app did not register udap', async () => {
    const plainApp = await registerCodeClient(dataHolder, { scope: 'openid user/*.rs' })
    const { result } = await tieredAuthorize({}, { client: plainApp })
    expect(result).toMatchObject({ error: 'invalid_scope' })
    expect(result.errorDescription).toMatch(/udap/)
  })

  it('an error page for an IdP callback that belongs to no login of this browser', async () => {
    const response = await fetch(`${dataHolder.endpoints.identityProviderCallback}?code=x&state=y`)
    expect(response.status).toBe(400)
    expect(((await response.json()) as Record<string, unknown>).error_description).toMatch(
      /no Tiered OAuth login/,
    )
  })
})

describe('Tiered OAuth: the IdP on its own (a data holder built with the library talks to it)', () => {
  it('issues an ID token with iss = IdP, aud = the client, the nonce, a short access token and no refresh token', async () => {
    const longLived = await startUdapSandbox({
      serverKeyPair: await sharedServerKeyPair(),
      identityProvider: true,
      grantTypes: ['authorization_code', 'refresh_token'],
      accessTokenLifetimeSeconds: 3600,
    })
    try {
      const holder = await registerCodeClient(longLived, {
        scope: 'openid udap',
        redirectUris: ['http://127.0.0.1:9/idp-callback'],
      })
      const { verifier, challenge } = pkcePair()
      const parameters = authorizationParameters(holder, challenge, {
        scope: 'openid udap',
        nonce: 'holder-nonce',
      })
      const result = await longLived.authorize({ url: authorizationUrl(longLived, parameters) })
      const answer = await exchangeCode(longLived, holder, {
        code: result.code as string,
        verifier,
      })
      expect(answer.json).toMatchObject({ expires_in: 300, scope: 'openid udap' })
      expect(answer.json).not.toHaveProperty('refresh_token')
      const keys = createLocalJWKSet(
        (await (await fetch(longLived.endpoints.jwks as string)).json()) as { keys: [] },
      )
      const { payload } = await jwtVerify(answer.json.id_token as string, keys, {
        issuer: longLived.issuer,
        audience: holder.clientId,
      })
      expect(payload).toMatchObject({ sub: 'udap-user-1', nonce: 'holder-nonce' })
    } finally {
      await longLived.close()
    }
  })

  it('refuses identityProvider or tieredOAuth without authorization_code', async () => {
    await expect(
      startUdapSandbox({ identityProvider: true, grantTypes: ['client_credentials'] }),
    ).rejects.toMatchObject({ invalidAttribute: 'identityProvider' })
    await expect(startUdapSandbox({ tieredOAuth: true })).rejects.toMatchObject({
      invalidAttribute: 'tieredOAuth',
    })
  })
})
