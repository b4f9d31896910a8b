/**
 * DESIGN §6 / §12 for UDAP: a server that echoes the request somewhere other than the OAuth
 * error members — a text/plain 500, a body over the size cap, a 2xx whose member names or
 * Content-Type are the secrets, WWW-Authenticate and other headers, a redirect's Location —
 * puts no fragment of a secret in the error or the logs, and every failure is the flow's typed
 * error (`RegistrationError` for registration, `TokenError` for tokens).
 */
import { otherPlaceForms } from './support/echo-forms.js'
import { describeEchoMatrix } from './support/echo-matrix.js'

describeEchoMatrix('outside the error members', otherPlaceForms)
