/**
 * How `completeAuthorization` reads the callback it is given (DESIGN §8: error → state → RFC 9207
 * `iss` → code): the forms a callback URL arrives in, a repeated `iss` that would spell the
 * issuer if glued together, a code echoed in an error, and the message of each refusal. Written
 * for the survivors of `pnpm test:mutation` in `src/launch/authorization-callback.ts`
 * (docs/testing.md); the main cases are in launch.test.ts.
 */
import { AuthorizationError, Client, ConfigurationError } from '@fhir-auth/client'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { baseUrl, discoveryUrl, fakeServer, json, smartConfiguration } from './support.js'

const tokenUrl = smartConfiguration.token_endpoint
const appConfig = {
  baseUrl,
  clientId: 'app',
  redirectUri: 'https://app.example.org/cb',
  scopes: ['launch/patient', 'patient/*.rs'],
}
const kept = { state: 's1', codeVerifier: 'v'.repeat(43) }
const issuerParameter = `iss=${encodeURIComponent(smartConfiguration.issuer)}`

/** A client of a SMART server that answers discovery and grants `at-1` for any code. */
function launchClient(configuration: Record<string, unknown> = smartConfiguration) {
  const server = fakeServer({
    [discoveryUrl]: () => json(configuration),
    [tokenUrl]: () => json({ access_token: 'at-1', token_type: 'Bearer' }),
  })
  const client = new Client(appConfig, { fetch: server.fetch })
  const codesExchanged = () =>
    server.requests
      .filter((request) => request.url === tokenUrl)
      .map((request) => new URLSearchParams(request.bodyText).get('code'))
  return { client, codesExchanged }
}

describe('completeAuthorization reads the callback in the forms apps hand it over', () => {
  it('a callback URL pasted with white space around it', async () => {
    const { client, codesExchanged } = launchClient()
    const session = await client.completeAuthorization(
      `  ${appConfig.redirectUri}?code=c1&state=s1&${issuerParameter}\n`,
      kept,
    )
    expect(session.tokens.accessToken).toBe('at-1')
    expect(codesExchanged()).toEqual(['c1'])
  })

  it('a relative callback at the root path ("/?code=…")', async () => {
    const { client, codesExchanged } = launchClient()
    await client.completeAuthorization('/?code=c1&state=s1', kept)
    expect(codesExchanged()).toEqual(['c1'])
  })

  it('anything else is a ConfigurationError on callbackUrl naming only its kind', async () => {
    const { client, codesExchanged } = launchClient()
    for (const [given, kind] of [
      [42, 'number'],
      [null, 'null'],
      [{ href: `${appConfig.redirectUri}?code=c1&state=s1` }, 'object'],
    ] as const) {
      const error = await failureOf(
        client.completeAuthorization(given as never, kept),
        ConfigurationError,
      )
      expect(error).toMatchObject({ invalidAttribute: 'callbackUrl', invalidValue: kind })
    }
    expect(codesExchanged()).toEqual([])
  })
})

describe('completeAuthorization refuses, before any token request, with a message that says why', () => {
  const refusal = async (
    callbackQuery: string,
    configuration: Record<string, unknown> = smartConfiguration,
  ) => {
    const { client, codesExchanged } = launchClient(configuration)
    const error = await failureOf(
      client.completeAuthorization(`${appConfig.redirectUri}?${callbackQuery}`, kept),
      AuthorizationError,
    )
    expect(codesExchanged()).toEqual([])
    return error
  }

  it('a repeated iss is not joined into the issuer it would spell', async () => {
    const error = await refusal('code=c1&state=s1&iss=https://ehr.example.org&iss=/fhir')
    expect(error.error).toBe('iss_mismatch')
    expect(error.message).toMatch(/another issuer than https:\/\/ehr\.example\.org\/fhir/)
  })

  it('no iss from a server that says it always sends one', async () => {
    const error = await refusal('code=c1&state=s1', {
      ...smartConfiguration,
      authorization_response_iss_parameter_supported: true,
    })
    expect(error.error).toBe('iss_mismatch')
    expect(error.message).toMatch(/has no iss although https:\/\/ehr\.example\.org\/fhir always/)
  })

  it('no state, and no code', async () => {
    const noState = await refusal('code=c1')
    expect(noState).toMatchObject({ error: 'state_mismatch' })
    expect(noState.message).toMatch(/has no state/)
    const noCode = await refusal(`state=s1&${issuerParameter}`)
    expect(noCode).toMatchObject({ error: 'missing_code', state: 's1' })
    expect(noCode.message).toMatch(/neither a code nor an error/)
  })

  it('an error with a code beside it: the code is cut out of every field, absent ones stay absent', async () => {
    const code = 'code-0123456789'
    const error = await refusal(`code=${code}&state=s1&error=denied_${code}`)
    expect(error).toMatchObject({
      error: 'denied_[REDACTED]',
      errorDescription: undefined,
      errorUri: undefined,
      state: 's1',
    })
    expect(JSON.stringify([error.message, error.error])).not.toContain(code)
  })
})

it('completeAuthorization accepts the issuer from a server that always sends iss', async () => {
  const { client, codesExchanged } = launchClient({
    ...smartConfiguration,
    authorization_response_iss_parameter_supported: true,
  })
  await client.completeAuthorization(
    `${appConfig.redirectUri}?code=c1&state=s1&${issuerParameter}`,
    kept,
  )
  expect(codesExchanged()).toEqual(['c1'])
})
