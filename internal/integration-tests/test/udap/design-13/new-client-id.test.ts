/**
 * IG STU2 registration: when a registration or modification answers with a `client_id` other
 * than the one in use, the server has cancelled the old one and the client SHALL use only the
 * new one. `client.clientId` reads the id in use, an `info` log names the change (ids are no
 * secrets; the software statement and keys never appear), and every later request uses it.
 * Against the UDAP sandbox answering each modification with a new `client_id`.
 */
import type { LogFields, Logger } from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import type { IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestsTo, softwareStatementOf } from '../support/sandbox-requests.js'
import {
  clientCredentialsRegistration,
  createUdapClient,
  identityOf,
  type TrustInputs,
  trustInputsOf,
} from '../support/udap-test-context.js'

let sandbox: UdapSandbox
let trust: TrustInputs
let serial = 0

beforeAll(async () => {
  sandbox = await startUdapSandbox({
    newClientIdOnModification: true,
    requiredAuthorizationExtensions: [],
  })
  trust = trustInputsOf(sandbox.trust)
}, 60_000)
afterAll(() => sandbox?.close())

/** A fresh client URI and a certificate for it. */
async function identity(): Promise<{ clientUri: string; certificate: IssuedCertificate }> {
  serial += 1
  const clientUri = `https://client.example.test/design-13-client-id-${serial}`
  const certificate = await sandbox.certificateAuthority.issue({
    commonName: `design 13 client id ${serial}`,
    sanUris: [clientUri],
    keyType: 'p256',
  })
  return { clientUri, certificate }
}

/** A logger that keeps every entry. */
function recordingLogger(): Logger & {
  readonly entries: { level: string; message: string; fields: LogFields | undefined }[]
} {
  const entries: { level: string; message: string; fields: LogFields | undefined }[] = []
  const at =
    (level: string) =>
    (message: string, fields?: LogFields): void => {
      entries.push({ level, message, fields })
    }
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

/** The `client_id` the server recorded for the last authentication token, and its verdict. */
function lastAuthentication(): { clientId: unknown; accepted: unknown } {
  const record = sandbox.authenticationTokens.at(-1)
  return { clientId: record?.clientId, accepted: record?.accepted }
}

describe('a modification that answers with a new client_id', () => {
  it('a configured clientId gives way to the new one: client.clientId, the log, later tokens', async () => {
    const { clientUri, certificate } = await identity()
    const first = await createUdapClient(sandbox, identityOf(certificate)).registerClient(
      clientCredentialsRegistration,
      { clientUri, ...trust },
    )
    const logger = recordingLogger()
    const client = createUdapClient(
      sandbox,
      identityOf(certificate),
      { logger },
      { clientId: first.client_id },
    )
    expect(client.clientId).toBe(first.client_id)

    const modified = await client.registerClient(
      { ...clientCredentialsRegistration, client_name: 'design 13, renamed' },
      { clientUri, ...trust },
    )
    expect(modified.client_id).not.toBe(first.client_id)
    expect(client.clientId).toBe(modified.client_id)
    expect(client.config.clientId).toBe(first.client_id)

    const changes = logger.entries.filter(
      (entry) => entry.fields?.event === 'udap.registration.client_id_changed',
    )
    expect(changes).toHaveLength(1)
    expect(changes[0]).toMatchObject({
      level: 'info',
      fields: { previousClientId: first.client_id, clientId: modified.client_id },
    })
    expect(changes[0]?.message).toContain(first.client_id)
    expect(changes[0]?.message).toContain(modified.client_id)
    // Ids are no secrets; the software statement and the key never reach a log line.
    const statement = softwareStatementOf(requestsTo(sandbox, '/register').at(-1) as never)
    const logged = JSON.stringify(logger.entries)
    expect(logged).not.toContain(statement)
    expect(logged).not.toContain(statement.split('.')[2])
    expect(logged).not.toContain('PRIVATE KEY')

    // The old client_id is cancelled at the server: only the new one authenticates.
    const token = await client.requestBackendToken()
    expect(typeof token.access_token).toBe('string')
    expect(lastAuthentication()).toEqual({ clientId: modified.client_id, accepted: true })
  })

  it('an unconfigured client follows each new client_id; the first registration is no change', async () => {
    const { clientUri, certificate } = await identity()
    const logger = recordingLogger()
    const client = createUdapClient(sandbox, identityOf(certificate), { logger })
    expect(client.clientId).toBeUndefined()
    const first = await client.registerClient(clientCredentialsRegistration, {
      clientUri,
      ...trust,
    })
    expect(client.clientId).toBe(first.client_id)
    const second = await client.registerClient(clientCredentialsRegistration, {
      clientUri,
      ...trust,
    })
    expect(second.client_id).not.toBe(first.client_id)
    expect(client.clientId).toBe(second.client_id)
    const changes = logger.entries.filter(
      (entry) => entry.fields?.event === 'udap.registration.client_id_changed',
    )
    expect(changes.map((entry) => entry.fields?.clientId)).toEqual([second.client_id])
    await client.requestBackendToken()
    expect(lastAuthentication()).toEqual({ clientId: second.client_id, accepted: true })
  })
})
