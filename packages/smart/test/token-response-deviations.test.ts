import { describe, expect, it } from 'vitest'
import { mayDeviate } from '../src/token-response-deviations.js'
import { warnOnTokenResponseDeviations } from '../src/token-response-warnings.js'
import { captureLogger } from './test-support.js'

const tokens = { access_token: 'at-secret', scope: 'patient/*.rs' }

/** What the token request does with an answer: the cheap test, then the warnings. */
function read(status: number, body: unknown, logger: ReturnType<typeof captureLogger>) {
  const bodyText = JSON.stringify(body)
  if (mayDeviate(bodyText))
    warnOnTokenResponseDeviations(JSON.parse(bodyText), status < 300, logger)
}

describe('token response deviations', () => {
  it('names each tolerated deviation once', () => {
    const logger = captureLogger()
    read(200, { ...tokens, token_type: 'BEARER', need_patient_banner: 'false' }, logger)
    read(401, { error: 'invalid_client', error_description: null }, logger)
    expect(logger.warnings()).toEqual([
      'Token response: token_type "BEARER" is not written "Bearer"; read as Bearer',
      'Token response: need_patient_banner is the string "false", not a boolean; read as false',
      'Token response: error_description is null (a string or absent, RFC 6749 §5.2); ignored',
    ])
  })

  it('is silent for a conforming response, vendor members and what is not a tolerance', () => {
    const logger = captureLogger()
    for (const body of [
      { ...tokens, token_type: 'Bearer', need_patient_banner: false, '__epic.dstu2.patient': 'T1' },
      { ...tokens, token_type: 'DPoP' },
      { ...tokens, token_type: 'bearer-at-secret', need_patient_banner: 'no' },
      { error: 'invalid_grant' },
      'not an object',
      null,
    ]) {
      read(200, body, logger)
    }
    expect(logger.warnings()).toEqual([])
  })

  it('loads the warnings only for an answer that may deviate', () => {
    const text = (body: object) => JSON.stringify(body)
    expect(mayDeviate(text({ ...tokens, token_type: 'Bearer', need_patient_banner: true }))).toBe(
      false,
    )
    expect(mayDeviate(text({ ...tokens, '__epic.dstu2.patient': 'T1' }))).toBe(false)
    expect(mayDeviate(text({ ...tokens, token_type: 'bearer' }))).toBe(true)
    expect(mayDeviate('{"error":"invalid_client", "error_description" : null}')).toBe(true)
  })
})
