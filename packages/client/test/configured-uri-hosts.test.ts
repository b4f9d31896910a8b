/**
 * A configured URL names its host as the WHATWG URL parser (the one that sends the requests)
 * reads it: a backslash, percent-encoding, a control character or user info in the authority,
 * and a trailing dot on the host, are a ConfigurationError naming the attribute, when the
 * client is built or, for an operation's URL, before anything is sent.
 */
import { describe, expect, it } from 'vitest'
import { Client, ConfigurationError } from '../src/index.js'
import { baseUrl, fakeServer, rejection } from './support.js'

/** The review's forms, and the related ones: each reaches another host than it shows. */
const misreadHosts = [
  'https://evil.example\\.ehr.example.org/fhir',
  'https://ehr.example%2Eorg/fhir',
  'https://ehr.example.org./fhir',
  'https://ehr.example.org.:443/fhir',
  'https://@ehr.example.org/fhir',
  'https://ehr.example\t.org/fhir',
  'https:ehr.example.org/fhir',
  'https:///ehr.example.org/fhir',
  'https://ehr.ex%61mple.org/fhir',
  'https://bücher.example/fhir',
]
const urlAttributes = ['baseUrl', 'issuer', 'jwksUri', 'authorizationEndpoint', 'tokenEndpoint']

function configurationError(action: () => unknown): ConfigurationError {
  try {
    action()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError)
    return error as ConfigurationError
  }
  throw new Error('expected a ConfigurationError')
}

describe('configured URLs whose host the URL parser reads otherwise', () => {
  for (const attribute of urlAttributes) {
    it.each(misreadHosts)(`${attribute} = %j is a ConfigurationError`, (value) => {
      const error = configurationError(() => new Client({ baseUrl, [attribute]: value }))
      expect(error.invalidAttribute).toBe(attribute)
      expect(error.message).toMatch(new RegExp(`^${attribute} must `))
    })
  }

  it.each(misreadHosts)('redirectUri = %j is a ConfigurationError', (value) => {
    const error = configurationError(() => new Client({ baseUrl, redirectUri: value }))
    expect(error.invalidAttribute).toBe('redirectUri')
    expect(error.message).toContain('must name its host as the WHATWG URL parser reads it')
  })

  it('says why, and never repeats user info', () => {
    for (const value of [
      'https://evil.example\\.good.org/r4',
      'https://api.evil%2Eorg/r4',
      'https://api.evil.org./r4',
    ]) {
      expect(configurationError(() => new Client({ baseUrl: value })).message).toBe(
        `baseUrl must name its host as the WHATWG URL parser reads it, got ${JSON.stringify(value)}`,
      )
    }
    const error = configurationError(
      () => new Client({ baseUrl, redirectUri: 'myapp://user:hunter2@evil.test/cb' }),
    )
    expect(JSON.stringify(error) + error.message).not.toContain('hunter2')
  })

  it('keeps accepting hosts written as the parser reads them', () => {
    for (const value of [
      'https://EHR.Example.org/fhir',
      'https://ehr.example.org:8443/fhir/',
      'https://xn--bcher-kva.example/fhir',
      'https://10.1.2.3/fhir',
      'https://[2001:db8::1]/fhir',
      'https://ehr.example.org/a%2Fb\\c d',
    ]) {
      expect(new Client({ baseUrl: value }).config.baseUrl).toBe(value.replace(/\/+$/, ''))
    }
    for (const value of ['com.example.app:/callback', 'http://127.0.0.1:4000/cb']) {
      expect(new Client({ baseUrl, redirectUri: value }).config.redirectUri).toBe(value)
    }
  })

  it.each(misreadHosts)(
    'registerClient with registrationEndpoint %j: ConfigurationError, nothing sent',
    async (value) => {
      const server = fakeServer({})
      const error = await rejection(
        new Client({ baseUrl }, { fetch: server.fetch }).registerClient(
          {},
          { registrationEndpoint: value },
        ),
      )
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe('registrationEndpoint')
      expect(server.requests).toHaveLength(0)
    },
  )
})
