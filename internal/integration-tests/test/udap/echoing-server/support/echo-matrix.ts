/**
 * The shape every echoing-server test file shares: one echoing server for the file, and a
 * matrix of every secret-sending operation against a list of echo forms.
 */
import { RegistrationError, TokenError } from '@fhir-auth/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EchoForm } from './echo-forms.js'
import { type EchoingUdapServer, startEchoingUdapServer } from './echoing-udap-server.js'
import { runEchoed } from './leak-scan.js'
import { secretOperations } from './secret-operations.js'

/** Starts an echoing server before the file's tests and stops it after; returns a getter. */
export function useEchoingServer(): () => EchoingUdapServer {
  let server: EchoingUdapServer | undefined
  beforeAll(async () => {
    server = await startEchoingUdapServer()
  }, 120_000)
  afterAll(() => server?.close())
  return () => {
    if (server === undefined) throw new Error('the echoing server did not start')
    return server
  }
}

/**
 * For every operation and every form: the operation fails with its flow's typed error
 * (`RegistrationError` for registration, `TokenError` for tokens), `more` holds, and no
 * fragment of a secret is in the error or the logs.
 */
export function describeEchoMatrix(
  where: string,
  forms: readonly EchoForm[],
  more: (error: RegistrationError | TokenError) => void = () => {},
): void {
  const server = useEchoingServer()
  for (const operation of secretOperations) {
    describe(`${operation.name}: a server echoing the request ${where}`, () => {
      it.each(forms.map((form) => [form.name, form] as const))('%s', async (_name, form) => {
        const { error, leaks } = await runEchoed(server(), operation, form)
        const registration = /regist/i.test(operation.name)
        expect(error).toBeInstanceOf(registration ? RegistrationError : TokenError)
        more(error as RegistrationError | TokenError)
        expect(leaks.slice(0, 5)).toEqual([])
      })
    })
  }
}
