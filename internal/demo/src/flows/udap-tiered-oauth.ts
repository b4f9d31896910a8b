/** Section 14: Tiered OAuth — the user signs in at an identity provider (both roles). */
import { AuthorizationError, memoryStore } from '@fhir-auth/client'
import type { DemoContext } from '../demo-context.js'
import type { Flow } from '../flow.js'
import { redirectUri, type SandboxWorld } from '../sandbox-world.js'
import { beginAndSignIn, completeSignIn } from '../sign-in-steps.js'
import { type AppIdentity, createAppClient, registerApp } from './udap-app-identity.js'

const tieredApp: AppIdentity = {
  clientUri: 'https://demo-app.example.test/tiered',
  commonName: 'fhir-auth demo Tiered OAuth app',
  keyType: 'p256',
  flow: 'tiered_oauth',
  redirectUri,
  scopes: ['openid', 'fhirUser', 'user/*.rs'],
  registeredScope: 'openid fhirUser udap user/*.rs',
  grantTypes: ['authorization_code', 'refresh_token'],
}

/** A data holder built with the library: a UDAP client of the identity provider. */
const dataHolderAtIdp: AppIdentity = {
  clientUri: 'https://demo-data-holder.example.test/fhir',
  commonName: 'fhir-auth demo data holder',
  keyType: 'p256',
  flow: 'tiered_oauth',
  redirectUri: 'https://demo-data-holder.example.test/idp-callback',
  scopes: ['openid', 'udap'],
  registeredScope: 'openid udap',
  // An IdP issues no refresh token for Tiered OAuth logins.
  grantTypes: ['authorization_code'],
}

/**
 * The app asks the data holder for Tiered OAuth (`idp`, and `udap` added to its scopes); the
 * data holder sends the user to the identity provider, checks its ID token and maps the person
 * to a local user; the app gets its code as usual. An unusable IdP comes back as
 * `AuthorizationError` `invalid_idp`. Then the data holder's own side, built with the library:
 * a UDAP client of the IdP that registers with `openid udap`, sends a nonce, exchanges the code
 * with an authentication token and gets the verified (`iss`, `sub`) to map.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/user.html
 */
export const udapTieredOAuthFlow: Flow<SandboxWorld> = {
  title: 'Tiered OAuth: the user signs in at an identity provider (app and data holder)',
  async run(context, world) {
    await appRole(context, world)
    await dataHolderRole(context, world)
  },
}

async function appRole(context: DemoContext, world: SandboxWorld): Promise<void> {
  const { dataHolder, identityProvider } = world.tiered
  const client = await createAppClient(context, dataHolder, tieredApp)
  await registerApp(context, dataHolder, client, tieredApp)
  const store = memoryStore()
  const idp = identityProvider.issuer
  const signIn = await beginAndSignIn(
    context,
    dataHolder,
    client,
    { store, idp },
    'data holder → identity provider (sign-in) → data holder → app',
  )
  context.check(
    signIn.parameters.idp === idp && signIn.parameters.scope?.split(' ').includes('udap') === true,
    `the request named idp ${idp} and the library added the udap scope`,
    'the request did not carry idp and the udap scope',
  )
  const session = await completeSignIn(context, client, signIn, store)
  const login = dataHolder.tieredLogins.at(-1)
  context.check(
    login?.outcome === 'code' && login.identity?.issuer === idp,
    `the data holder signed the user in at ${idp} (sub ${String(login?.identity?.subject)}) and mapped them to its user ${String(session.tokens.idTokenClaims?.sub)}`,
    'the data holder did not sign the user in at the identity provider',
  )
  context.transcript.note(
    "the same login when the data holder cannot use the IdP (sandbox.setHostile('invalid-idp')):",
  )
  dataHolder.setHostile('invalid-idp')
  try {
    const refusedSignIn = await beginAndSignIn(
      context,
      dataHolder,
      client,
      { store, idp },
      'the data holder refuses the identity provider',
    )
    const refused = await context.refusal(
      'client.completeAuthorization(callbackUrl, { store })',
      () => client.completeAuthorization(refusedSignIn.callbackUrl, { store }),
    )
    context.check(
      refused instanceof AuthorizationError && refused.error === 'invalid_idp',
      'AuthorizationError invalid_idp: the app may retry with another idp, or without Tiered OAuth',
      `expected AuthorizationError invalid_idp, got ${refused.name}`,
    )
  } finally {
    dataHolder.setHostile(undefined)
  }
}

async function dataHolderRole(context: DemoContext, world: SandboxWorld): Promise<void> {
  const { identityProvider } = world.tiered
  context.transcript.note(
    "the data holder's side, built with the library: a UDAP client of the identity provider asking only who the user is",
  )
  const holder = await createAppClient(context, identityProvider, dataHolderAtIdp)
  await registerApp(
    context,
    identityProvider,
    holder,
    dataHolderAtIdp,
    "client.registerClient({ …, scope: 'openid udap' }, { clientUri, trustedAnchors, crls })",
  )
  const store = memoryStore()
  const signIn = await beginAndSignIn(
    context,
    identityProvider,
    holder,
    { store },
    'the user signs in at the identity provider',
  )
  const session = await completeSignIn(context, holder, signIn, store)
  const claims = session.tokens.idTokenClaims
  context.check(
    claims?.iss === identityProvider.issuer &&
      claims.nonce === signIn.parameters.nonce &&
      session.tokens.refreshToken === undefined,
    `IdP ID token verified with the IdP's keys (iss = idp, aud = this client, nonce); no refresh token`,
    'the identity provider’s ID token is not the one of this sign-in',
  )
  context.check(
    typeof claims?.sub === 'string',
    `map (iss, sub) = (${String(claims?.iss)}, ${String(claims?.sub)}) to a local user: the application’s part`,
    'the ID token has no sub',
  )
}
