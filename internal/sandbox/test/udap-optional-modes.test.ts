/**
 * The UDAP sandbox's optional (conformant) modes: RFC 9207 `iss` on authorization responses
 * with the flag advertised signed or unsigned, the `signed_metadata` lifetime, and a new
 * `client_id` on modification (the old one cancelled).
 */
import { randomUUID } from 'node:crypto'
import { ConfigurationError } from '@fhir-auth/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startUdapSandbox, type UdapSandbox } from '../src/index.js'
import { sharedServerKeyPair } from './support/server-key.js'
import { authorizationUrl, pkcePair, registerCodeClient } from './udap-code-flow-client.js'
import {
  authenticationClaims,
  decodeJws,
  discover,
  issueClient,
  registerClient,
  requestToken,
  signWithCertificate,
} from './udap-test-client.js'

const flag = 'authorization_response_iss_parameter_supported'
const started: UdapSandbox[] = []

async function sandboxWith(options: Parameters<typeof startUdapSandbox>[0]) {
  const sandbox = await startUdapSandbox({ serverKeyPair: await sharedServerKeyPair(), ...options })
  started.push(sandbox)
  return sandbox
}

afterAll(async () => {
  await Promise.all(started.map((sandbox) => sandbox.close()))
})

async function metadataOf(sandbox: UdapSandbox) {
  const document = (await (await discover(sandbox)).json()) as Record<string, unknown>
  return { document, claims: decodeJws(String(document.signed_metadata)).claims }
}

describe('authorizationResponseIss', () => {
  for (const where of ['signed', 'unsigned'] as const) {
    it(`${where}: advertises the flag there only, and every authorization response carries iss`, async () => {
      const sandbox = await sandboxWith({
        grantTypes: ['authorization_code'],
        authorizationResponseIss: where,
      })
      const { document, claims } = await metadataOf(sandbox)
      expect(document[flag]).toBe(where === 'unsigned' ? true : undefined)
      expect(claims[flag]).toBe(where === 'signed' ? true : undefined)
      const client = await registerCodeClient(sandbox, { grantTypes: ['authorization_code'] })
      const parameters = {
        response_type: 'code',
        client_id: client.clientId,
        redirect_uri: String(client.redirectUris[0]),
        scope: 'user/Patient.rs',
        state: 'state-1',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }
      const approved = await sandbox.authorize({ url: authorizationUrl(sandbox, parameters) })
      expect(approved.code).toEqual(expect.any(String))
      expect(approved.redirectUrl?.searchParams.get('iss')).toBe(sandbox.fhirBaseUrl)
      const refused = await sandbox.authorize({
        url: authorizationUrl(sandbox, { ...parameters, scope: 'system/Patient.rs' }),
      })
      expect(refused.error).toEqual(expect.any(String))
      expect(refused.redirectUrl?.searchParams.get('iss')).toBe(sandbox.fhirBaseUrl)
    })
  }

  it('is off by default: no flag, no iss', async () => {
    const sandbox = await sandboxWith({ grantTypes: ['authorization_code'] })
    const { document, claims } = await metadataOf(sandbox)
    expect(document).not.toHaveProperty(flag)
    expect(claims).not.toHaveProperty(flag)
    const client = await registerCodeClient(sandbox, { grantTypes: ['authorization_code'] })
    const result = await sandbox.authorize({
      url: authorizationUrl(sandbox, {
        response_type: 'code',
        client_id: client.clientId,
        redirect_uri: String(client.redirectUris[0]),
        scope: 'user/Patient.rs',
        state: 'state-1',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }),
    })
    expect(result.redirectUrl?.searchParams.has('iss')).toBe(false)
  })

  it('refuses another value', async () => {
    await expect(
      startUdapSandbox({ authorizationResponseIss: 'both' as never }),
    ).rejects.toMatchObject({ invalidAttribute: 'authorizationResponseIss' })
  })
})

describe('signedMetadataLifetimeSeconds', () => {
  it('sets exp − iat (default one hour)', async () => {
    const yearly = await sandboxWith({ signedMetadataLifetimeSeconds: 366 * 86_400 })
    const hourly = await sandboxWith({})
    const lifetime = async (sandbox: UdapSandbox) => {
      const { claims } = await metadataOf(sandbox)
      return Number(claims.exp) - Number(claims.iat)
    }
    expect(await lifetime(yearly)).toBe(366 * 86_400)
    expect(await lifetime(hourly)).toBe(3600)
  })

  it('refuses a lifetime that is not a positive integer', async () => {
    await expect(startUdapSandbox({ signedMetadataLifetimeSeconds: 0 })).rejects.toBeInstanceOf(
      ConfigurationError,
    )
  })
})

describe('newClientIdOnModification', () => {
  let sandbox: UdapSandbox
  beforeAll(async () => {
    sandbox = await sandboxWith({
      newClientIdOnModification: true,
      requiredAuthorizationExtensions: [],
    })
  })

  it('answers a modification with a new client_id; only the new one authenticates', async () => {
    const uri = `https://client.example.test/${randomUUID()}`
    const certificate = await issueClient(sandbox, { sanUris: [uri] })
    const first = await registerClient(sandbox, certificate, { iss: uri, sub: uri })
    const second = await registerClient(sandbox, certificate, { iss: uri, sub: uri })
    expect(first.status).toBe(201)
    expect(second.status).toBe(200)
    const [oldId, newId] = [String(first.json.client_id), String(second.json.client_id)]
    expect(newId).not.toBe(oldId)
    expect(sandbox.registrations.has(oldId)).toBe(false)
    expect(sandbox.registrations.get(newId)).toMatchObject({ clientUri: uri, cancelled: false })
    const tokenFor = async (clientId: string) =>
      requestToken(
        sandbox,
        await signWithCertificate(authenticationClaims(sandbox, clientId), certificate),
      )
    expect((await tokenFor(oldId)).json.error).toBe('invalid_client')
    expect((await tokenFor(newId)).status).toBe(200)
  })
})
