/** Section 4: the code exchange for each confidential client type. */
import { type ClientConfigInput, type ClientType, memoryStore } from '@fhir-auth/client'
import type { Flow } from '../flow.js'
import { redirectUri, type SandboxWorld, smartClientIds } from '../sandbox-world.js'
import { beginAndSignIn, completeSignIn } from '../sign-in-steps.js'

/** One confidential client: what it is, how it authenticates, its credentials. */
interface ConfidentialClient {
  readonly clientType: ClientType
  readonly explanation: string
  readonly config: Pick<ClientConfigInput, 'clientId' | 'clientSecret' | 'privateKey' | 'kid'>
}

const tokenFields = ['access_token', 'token_type', 'expires_in', 'scope', 'patient']

/**
 * The same authorization, then a code exchange as `confidential_symmetric` (HTTP Basic) and as
 * `confidential_asymmetric` with an ES384 and an RS384 key (a signed `client_assertion`).
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-symmetric.html
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-asymmetric.html
 */
export const confidentialClientsFlow: Flow<SandboxWorld> = {
  title: 'Code exchange by confidential clients: client secret, ES384 and RS384 keys',
  async run(context, world) {
    const { es384, rs384 } = world.keys
    const clients: ConfidentialClient[] = [
      {
        clientType: 'confidential_symmetric',
        explanation: 'confidential_symmetric: HTTP Basic with the client secret (RFC 6749 §2.3.1)',
        config: { clientId: smartClientIds.symmetric, clientSecret: world.clientSecret },
      },
      {
        clientType: 'confidential_asymmetric',
        explanation: 'confidential_asymmetric, P-384 key: a client_assertion JWT signed ES384',
        config: { clientId: smartClientIds.es384, privateKey: es384.privateKeyPem, kid: es384.kid },
      },
      {
        clientType: 'confidential_asymmetric',
        explanation: 'confidential_asymmetric, RSA key: a client_assertion JWT signed RS384',
        config: { clientId: smartClientIds.rs384, privateKey: rs384.privateKeyPem, kid: rs384.kid },
      },
    ]
    for (const entry of clients) {
      context.transcript.note(entry.explanation)
      const client = context.createClient(
        {
          baseUrl: world.smart.fhirBaseUrl,
          redirectUri,
          scopes: ['launch/patient', 'patient/*.rs'],
          allowInsecureLocalhost: true,
          ...entry.config,
        },
        { clientType: entry.clientType },
      )
      const store = memoryStore()
      const signIn = await beginAndSignIn(
        context,
        world.smart,
        client,
        { store },
        'the user approves',
        'approve',
        'brief',
      )
      const session = await completeSignIn(context, client, signIn, store, tokenFields)
      const token = session.tokens.raw
      context.check(
        token.token_type === 'Bearer',
        `${String(entry.config.clientId)} authenticated; Bearer token for patient ${String(token.patient)}`,
        `${String(entry.config.clientId)} got token_type ${String(token.token_type)}`,
      )
    }
  },
}
