/**
 * The ways a hostile or buggy server echoes a request: in each place of its answer (OAuth error
 * members, a non-JSON body, a huge body, a 2xx body, headers, a redirect) and in each encoding a
 * server quotes a value in (as sent, form- and percent-encoded, JSON-escaped with `\/`, one part
 * of a JWT alone).
 */
import type { EchoAnswer, EchoedRequest } from './echoing-udap-server.js'

/** One way of echoing: its name and the answer it makes from the request and its secrets. */
export interface EchoForm {
  readonly name: string
  answer(secrets: Readonly<Record<string, string>>, request: EchoedRequest): EchoAnswer
}

const json = (status: number, body: unknown, headers?: Record<string, string>): EchoAnswer => ({
  status,
  body: JSON.stringify(body),
  ...(headers === undefined ? {} : { headers }),
})

const refusal = (description: string): EchoAnswer =>
  json(400, { error: 'invalid_request', error_description: description })

const values = (secrets: Readonly<Record<string, string>>) => Object.values(secrets)

/** A text of `length` filler characters with `payload` at `offset` (clamped to fit). */
export function padded(payload: string, offset: number, length = 10_240): string {
  const start = Math.max(0, Math.min(offset, length - payload.length))
  return `${'x'.repeat(start)}${payload}${'x'.repeat(Math.max(0, length - start - payload.length))}`
}

/** Echoes in the OAuth error members of a 4xx JSON answer. */
export const errorMemberForms: readonly EchoForm[] = [
  {
    name: 'the request body as sent (form or JSON), in error_description',
    answer: (_secrets, request) => refusal(request.bodyText),
  },
  {
    name: "the secrets JSON-escaped with \\/ (PHP's json_encode), in error_description",
    answer: (secrets) => refusal(JSON.stringify(secrets).replaceAll('/', '\\/')),
  },
  {
    name: 'each secret percent-encoded, in error_description',
    answer: (secrets) => refusal(values(secrets).map(encodeURIComponent).join(' ')),
  },
  {
    name: 'the secrets form-encoded, in error_description',
    answer: (secrets) => refusal(new URLSearchParams(secrets).toString()),
  },
  {
    name: 'each part of every JWT alone (the signature is the credential), in error_description',
    answer: (secrets) =>
      refusal(
        values(secrets)
          .flatMap((secret) => (secret.startsWith('eyJ') ? secret.split('.') : [secret]))
          .map((part, index) => `part ${index}: ${part}`)
          .join('; '),
      ),
  },
  {
    name: 'in error and error_uri',
    answer: (secrets) =>
      json(400, {
        error: `invalid_${values(secrets).join('_')}`,
        error_uri: `https://errors.example.test/${values(secrets).join('/')}?echo=${encodeURIComponent(values(secrets).join(' '))}`,
      }),
  },
  {
    name: 'a 10 KB error_description, the secrets at its start',
    answer: (secrets) => refusal(padded(values(secrets).join(' '), 0)),
  },
  {
    name: 'a 10 KB error_description, the secrets in its middle',
    answer: (secrets) => refusal(padded(values(secrets).join(' '), 5_000)),
  },
  {
    name: 'a 10 KB error_description, the secrets at its end',
    answer: (secrets) => refusal(padded(values(secrets).join(' '), 10_240)),
  },
]

/** Echoes elsewhere: bodies that are not OAuth errors, headers, redirects. */
export const otherPlaceForms: readonly EchoForm[] = [
  {
    name: 'a text/plain 500 quoting the request and the secrets',
    answer: (secrets, request) => ({
      status: 500,
      headers: { 'content-type': 'text/plain' },
      body: `could not handle ${request.bodyText} (${values(secrets).join(', ')})`,
    }),
  },
  {
    name: 'a body over the 1 MiB cap, repeating the secrets',
    answer: (secrets) =>
      refusal(
        values(secrets)
          .join(' ')
          .repeat(Math.ceil(1_200_000 / values(secrets).join(' ').length)),
      ),
  },
  {
    name: 'a 2xx whose member names are the secrets (no access_token, no client_id)',
    answer: (secrets) =>
      json(201, Object.fromEntries(values(secrets).map((secret, index) => [secret, index]))),
  },
  {
    name: 'a 2xx that is not JSON, the secrets in its Content-Type and body',
    answer: (secrets) => ({
      status: 200,
      headers: {
        'content-type': `text/plain; ${values(secrets)
          .map((secret, index) => `echo${index}="${secret}"`)
          .join('; ')}`,
      },
      body: `ok ${values(secrets).join(' ')}`,
    }),
  },
  {
    name: 'a 401 with the secrets in WWW-Authenticate and another header',
    answer: (secrets, request) =>
      json(
        401,
        { error: 'invalid_client' },
        {
          'www-authenticate': `Bearer error="invalid_client", error_description="${values(secrets).join(' ')}"`,
          'x-echo': request.bodyText,
        },
      ),
  },
  {
    name: 'a redirect to a URL carrying the secrets',
    answer: (secrets) => ({
      status: 302,
      headers: {
        location: `https://elsewhere.example.test/${values(secrets).join('/')}?echo=${encodeURIComponent(values(secrets).join(' '))}`,
      },
      body: '',
    }),
  },
]
