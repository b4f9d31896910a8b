/**
 * Prototype pollution: documents with `__proto__`, `constructor.prototype` and `prototype`
 * members, written as JSON text (so they are own members after parsing, as a server's body
 * would give), through every parser and through `Client`. Afterwards `({}).polluted` is
 * `undefined` and no built-in prototype gained a member (the package's guard checks that after
 * every test too; here a control shows the check is not blind).
 */
import { Client } from '@fhir-auth/client'
import { type HttpResponse, parseOAuthErrorBody } from '@fhir-auth/core'
import { parseRegistrationResponse, parseTokenResponse, SmartMetadata } from '@fhir-auth/smart'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import {
  parseUdapMetadata,
  parseUdapRegistrationResponse,
  parseUdapTokenResponse,
} from '@fhir-auth/udap'
import { afterAll, describe, expect, it } from 'vitest'
import {
  countHandWrittenCases,
  literal,
  objectNode,
  pollutingValue,
  printCaseLedger,
  prototypePollutionSince,
  renderJson,
  scriptedFetch,
  snapshotPrototypes,
  toJsonNode,
  validSmartConfiguration,
  validTokenResponse,
  withMember,
} from '../src/index.js'

afterAll(() => printCaseLedger('prototype-pollution'))

/** A valid document with every polluting member added, as JSON text. */
function pollutedText(valid: Record<string, unknown>): string {
  let node = toJsonNode(valid)
  node = withMember(node, '__proto__', pollutingValue)
  node = withMember(
    node,
    'constructor',
    objectNode([['prototype', objectNode([['polluted', literal('yes')]])]]),
  )
  node = withMember(node, 'prototype', pollutingValue)
  node = withMember(node, 'nested', objectNode([['__proto__', pollutingValue]]))
  return renderJson(node)
}

function response(bodyText: string, status = 200): HttpResponse {
  return {
    url: 'https://ehr.hardening.test/token',
    status,
    headers: new Headers({ 'content-type': 'application/json' }),
    bodyText,
  }
}

const origin = 'https://ehr.hardening.test'

describe('hostile JSON with prototype members', () => {
  it('pollutes nothing through any parser, and parsed objects keep Object.prototype', () => {
    const snapshot = snapshotPrototypes()
    const smartText = pollutedText(validSmartConfiguration(origin))
    const metadata = SmartMetadata.fromJson(JSON.parse(smartText), { baseUrl: `${origin}/fhir` })
    expect(metadata.capabilities.length).toBeGreaterThan(0)
    expect(Object.getPrototypeOf(metadata.raw)).toBe(Object.prototype)
    expect(Object.getPrototypeOf(metadata.toJSON())).toBe(Object.prototype)

    const tokens = parseTokenResponse(
      response(pollutedText(validTokenResponse('access-value-1', 'refresh-value-1'))),
    )
    expect(Object.getPrototypeOf(tokens)).toBe(Object.prototype)
    parseUdapTokenResponse(response(pollutedText({ access_token: 'access-value-1' })))
    parseRegistrationResponse(response(pollutedText({ client_id: 'client-1' })))
    parseUdapRegistrationResponse(
      response(pollutedText({ client_id: 'client-1', grant_types: [] })),
      'cancel',
    )
    parseOAuthErrorBody(JSON.parse(pollutedText({ error: 'invalid_grant' })))
    expect(() =>
      parseUdapMetadata(JSON.parse(pollutedText({ udap_versions_supported: ['1'] })), {
        endpoint: 'https://fhir.hardening.test/.well-known/udap',
        allowInsecureLocalhost: false,
      }),
    ).toThrow(/unusable/)
    countHandWrittenCases('polluting documents through the parsers', 7)

    expect(prototypePollutionSince(snapshot)).toEqual([])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('pollutes nothing through Client discovery, token and registration responses', async () => {
    const snapshot = snapshotPrototypes()
    const fetch = scriptedFetch((call) => ({
      body: call.url.endsWith('smart-configuration')
        ? pollutedText(validSmartConfiguration(origin))
        : call.url.endsWith('/reg')
          ? pollutedText({ client_id: 'client-1', client_secret: 'secret-value-1' })
          : pollutedText(validTokenResponse('access-value-1', 'refresh-value-1')),
      headers: { 'content-type': 'application/json' },
    }))
    const client = new Client(
      {
        baseUrl: `${origin}/fhir`,
        clientId: 'app',
        redirectUri: 'https://app.hardening.test/cb',
        scopes: ['openid'],
      },
      { fetch: fetch.fetch, logger: createCapturingLogger() },
    )
    const { codeVerifier } = await client.authorizationUrl()
    const tokens = await client.requestAccessToken({ code: 'code-value-123', codeVerifier })
    const refreshed = await client.refreshToken({ refreshToken: 'refresh-value-1' })
    const registered = await client.registerClient({ client_name: 'app' })
    expect(client.isTokenResponseValid(tokens)).toBe(true)
    for (const value of [tokens, refreshed, registered])
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    countHandWrittenCases('polluting documents through Client', 4)

    expect(prototypePollutionSince(snapshot)).toEqual([])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('the pollution check sees a polluted prototype (control)', () => {
    const snapshot = snapshotPrototypes()
    const prototype = Object.prototype as Record<string, unknown>
    prototype.polluted = 'yes'
    try {
      expect(prototypePollutionSince(snapshot)).toEqual([
        'Object.prototype.polluted',
        '({}).polluted is defined',
      ])
    } finally {
      delete prototype.polluted
    }
    expect(prototypePollutionSince(snapshot)).toEqual([])
  })
})
