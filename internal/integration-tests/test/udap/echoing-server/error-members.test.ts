/**
 * DESIGN §6 / §12 for UDAP: a server that echoes the request in its OAuth error members — the
 * software statement, the client assertion, codes, verifiers, refresh tokens, as sent or
 * encoded, whole or one JWT part at a time, in a 10 KB description — puts none of it, nor any
 * 8-character fragment of it, in the error (message, cause chain, toJSON, inspect, String) or in
 * a log line, for every operation of `Client` and of the functional API. The error is the flow's
 * typed error with the server's status and `error`.
 */
import { expect } from 'vitest'
import { errorMemberForms } from './support/echo-forms.js'
import { describeEchoMatrix } from './support/echo-matrix.js'

describeEchoMatrix('in its error members', errorMemberForms, (error) => {
  expect(error.status).toBe(400)
  expect(error.error).toMatch(/^invalid_/)
})
