import { afterEach, describe, expect, it } from 'vitest'
import { type SmartSandbox, startSmartSandbox } from '../../src/index.js'
import { ConfigurationErrorForTests } from './support/imports.js'

const started: SmartSandbox[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()))
})

async function start(options: Parameters<typeof startSmartSandbox>[0] = {}): Promise<SmartSandbox> {
  const sandbox = await startSmartSandbox(options)
  started.push(sandbox)
  return sandbox
}

describe('startSmartSandbox', () => {
  it('listens on 127.0.0.1 with a random port', async () => {
    const sandbox = await start()

    expect(sandbox.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(sandbox.initialAccessToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('runs several sandboxes side by side on different ports', async () => {
    const [one, two] = await Promise.all([start(), start()])

    expect(one.origin).not.toBe(two.origin)
    expect(one.initialAccessToken).not.toBe(two.initialAccessToken)
  })

  it('closes the server and every connection; closing twice is harmless', async () => {
    const sandbox = await startSmartSandbox()
    await fetch(sandbox.endpoints.discovery).then((response) => response.body?.cancel())

    await sandbox.close()
    await sandbox.close()
    await expect(fetch(sandbox.endpoints.discovery)).rejects.toThrow()
  })

  it.each([
    ['accessTokenLifetimeSeconds', { accessTokenLifetimeSeconds: 0 }],
    ['backendAccessTokenLifetimeSeconds', { backendAccessTokenLifetimeSeconds: 1.5 }],
    ['initialAccessToken', { initialAccessToken: '' }],
    ['user.id', { user: { id: '' } }],
    ['clients', { clients: 'public-app' }],
  ])('rejects a bad %s with a ConfigurationError', async (attribute, options) => {
    const failure = startSmartSandbox(options as never)

    await expect(failure).rejects.toThrow(ConfigurationErrorForTests)
    await expect(failure).rejects.toMatchObject({ invalidAttribute: attribute })
  })

  it('uses the configured initial access token and user', async () => {
    const sandbox = await start({
      initialAccessToken: 'fixed-initial-token',
      user: { id: 'patient-1', fhirUser: 'Patient/patient-1' },
    })

    expect(sandbox.initialAccessToken).toBe('fixed-initial-token')
  })
})

describe('sandbox.addClient', () => {
  it('rejects a client whose metadata the provider refuses, without echoing its secret', async () => {
    const sandbox = await start()
    const failure = sandbox.addClient({
      client_id: 'no-secret',
      token_endpoint_auth_method: 'client_secret_basic',
      redirect_uris: ['not a url'],
      client_secret: 'super-secret-value',
    })

    await expect(failure).rejects.toThrow(ConfigurationErrorForTests)
    await expect(failure).rejects.not.toThrow(/super-secret-value/)
  })

  it('rejects a client_id that is already registered', async () => {
    const sandbox = await start({
      clients: [{ client_id: 'taken', token_endpoint_auth_method: 'none' }],
    })

    await expect(
      sandbox.addClient({ client_id: 'taken', token_endpoint_auth_method: 'none' }),
    ).rejects.toThrow(/already registered/)
  })

  it('rejects a private_key_jwt client without keys', async () => {
    const sandbox = await start()

    await expect(
      sandbox.addClient({ client_id: 'keyless', token_endpoint_auth_method: 'private_key_jwt' }),
    ).rejects.toThrow(ConfigurationErrorForTests)
  })
})

describe('sandbox.authorize misuse', () => {
  it('refuses a URL on another origin, an unparsable URL and a malformed request', async () => {
    const sandbox = await start()

    await expect(
      sandbox.authorize({ url: 'https://elsewhere.example/auth' }),
    ).rejects.toMatchObject({
      name: 'ConfigurationError',
      invalidAttribute: 'url',
    })
    await expect(sandbox.authorize({ url: 'not a url' })).rejects.toThrow(
      ConfigurationErrorForTests,
    )
    await expect(sandbox.authorize(null as never)).rejects.toThrow(ConfigurationErrorForTests)
    await expect(
      sandbox.authorize({ endpoint: sandbox.endpoints.authorization } as never),
    ).rejects.toMatchObject({
      invalidAttribute: 'params',
    })
  })
})
