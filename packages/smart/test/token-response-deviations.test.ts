import { describe, expect, it } from 'vitest'
import { warnOnTokenResponseDeviations } from '../src/token-response-deviations.js'
import { captureLogger } from './test-support.js'

function response(status: number, body: unknown) {
  return {
    url: 'https://ehr.example.org/oauth2/token',
    status,
    headers: new Headers({ 'content-type': 'application/json' }),
    bodyText: typeof body === 'string' ? body : JSON.stringify(body),
  }
}

const tokens = { access_token: 'at-secret', scope: 'patient/*.rs' }

describe('warnOnTokenResponseDeviations', () => {
  it('names each tolerated deviation once', () => {
    const logger = captureLogger()
    warnOnTokenResponseDeviations(
      response(200, { ...tokens, token_type: 'BEARER', need_patient_banner: 'false' }),
      logger,
    )
    warnOnTokenResponseDeviations(
      response(401, { error: 'invalid_client', error_description: null }),
      logger,
    )
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
    ]) {
      warnOnTokenResponseDeviations(response(200, body), logger)
    }
    warnOnTokenResponseDeviations(response(400, { error: 'invalid_grant' }), logger)
    warnOnTokenResponseDeviations(response(200, 'not json'), logger)
    warnOnTokenResponseDeviations(response(200, { ...tokens, token_type: 'bearer' }), undefined)
    expect(logger.warnings()).toEqual([])
  })
})
