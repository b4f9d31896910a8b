import type { LocalSandboxesDescription } from './local-sandboxes.js'
import type { UdapCommunityFiles } from './udap-community-files.js'

/** How a person runs the repository's scripts with only Node and npm (no global pnpm). */
const pnpm = 'npx -y pnpm@10'
const indent = ' '.repeat(24)

/**
 * The text `pnpm sandbox` prints for a person: the servers, a ready client of each kind, an EHR
 * launch for the web-app example, and CLI commands to try against them (from the repository
 * root).
 */
export function localSandboxesSummary(description: LocalSandboxesDescription): string {
  const { smart, udap, udapTiered } = description
  const cli = `${pnpm} -s fhir-auth`
  const local = '--allow-insecure-localhost'
  const webApp = smart.webAppClient
  const tieredText =
    udapTiered === undefined
      ? ''
      : `
UDAP Tiered OAuth (--udap-tiered: the demo's data holder and the identity provider it trusts)
  data holder base URL  ${udapTiered.dataHolder.baseUrl}
  identity provider     ${udapTiered.identityProvider.baseUrl}   (the idp value)
${udapFiles(udapTiered.dataHolder, 'the register and authorize commands below')}
  redirect URI          ${udapTiered.dataHolder.redirectUri}   (never contacted: paste the URL you land on)
`
  return `fhir-auth sandbox: local SMART and UDAP servers on 127.0.0.1 (Ctrl-C stops them)

SMART (oidc-provider)
  base URL              ${smart.baseUrl}
  redirect URI          ${smart.redirectUri}   (never contacted: paste the URL you land on)
  public client         ${smart.publicClient.clientId}
  symmetric client      ${smart.symmetricClient.clientId}   secret ${smart.symmetricClient.clientSecret}
  web app (example)     ${webApp.clientId}   secret ${webApp.clientSecret}   redirect ${webApp.redirectUri}
  browser app (example) ${smart.browserAppClient.clientId}   redirect ${smart.browserAppClient.redirectUri}
  backend client        ${smart.backendClient.clientId}   key ${smart.backendClient.keyFile}   kid ${smart.backendClient.kid}
  initial access token  ${smart.initialAccessToken}   (RFC 7591 registration)

UDAP (B2B client credentials; unregistered clients allowed)
  base URL              ${udap.baseUrl}
${udapFiles(udap, "examples/udap-b2b's CRL_FILES")}
${tieredText}
Files are in ${description.directory}

Try it (from the repository root, in another terminal):
  ${cli} discover ${smart.baseUrl} ${local}
  ${cli} token --base-url ${smart.baseUrl} --client-id ${smart.backendClient.clientId} --key ${smart.backendClient.keyFile} --kid ${smart.backendClient.kid} --scope '${smart.backendClient.scope}' ${local}
  ${cli} authorize --base-url ${smart.baseUrl} --client-id ${smart.publicClient.clientId} --redirect-uri ${smart.redirectUri} --scope 'launch/patient patient/*.rs' ${local}
  ${cli} discover ${udap.baseUrl} --udap ${udapTrustFlags(udap)} ${local}
  ${cli} token --udap --base-url ${udap.baseUrl} --client-uri ${udap.client.clientUri} --key ${udap.client.keyFile} --cert ${udap.client.certificateChainFile} ${udapTrustFlags(udap)} --scope 'system/*.rs' --b2b-organization-id ${udap.b2b.organizationId} --b2b-purpose-of-use '${udap.b2b.purposeOfUse}' ${local}
${udapTiered === undefined ? '' : tieredCommands(udapTiered, cli, local)}
The node-web-app example with an EHR launch (patient ${webApp.ehrLaunchPatient}): start it in examples/node-web-app,
  FHIR_BASE_URL=${smart.baseUrl} CLIENT_ID=${webApp.clientId} CLIENT_SECRET=${webApp.clientSecret} REDIRECT_URI=${webApp.redirectUri} ALLOW_INSECURE_LOCALHOST=true ${pnpm} start
then open, as the EHR would:
  ${webApp.ehrLaunchUrl}
`
}

/** The trust anchor, the CRLs (the two needed ones, then the others, labelled) and the client. */
function udapFiles(files: UdapCommunityFiles, usedBy: string): string {
  const hostile = files.hostileTestCaCrlFiles
  const hostileText =
    hostile.length === 0
      ? ''
      : `  other CRLs            ${hostile.length} files, ${hostile[0]} …
${indent}(CAs of the sandbox's hostile test certificates, for its test suite: not needed here)
`
  return `  trust anchor          ${files.trustAnchorFile}
  CRLs                  ${files.crlFiles.join(`\n${indent}`)}
${indent}(the root's and the intermediate's: all a client needs, e.g. ${usedBy})
${hostileText}  client URI            ${files.client.clientUri}
  client key            ${files.client.keyFile}
  client chain          ${files.client.certificateChainFile}`
}

function udapTrustFlags(files: UdapCommunityFiles): string {
  return [
    `--trust-anchor ${files.trustAnchorFile}`,
    ...files.crlFiles.map((file) => `--crl ${file}`),
  ].join(' ')
}

/** Register an app at the data holder, then a Tiered OAuth sign-in at the identity provider. */
function tieredCommands(
  tiered: NonNullable<LocalSandboxesDescription['udapTiered']>,
  cli: string,
  local: string,
): string {
  const { dataHolder, identityProvider } = tiered
  const identity = `--key ${dataHolder.client.keyFile} --cert ${dataHolder.client.certificateChainFile}`
  const metadata = JSON.stringify({
    client_name: 'fhir-auth sandbox Tiered OAuth app',
    contacts: ['mailto:admin@tiered-app.sandbox.example'],
    grant_types: ['authorization_code', 'refresh_token'],
    redirect_uris: [dataHolder.redirectUri],
    logo_uri: 'https://tiered-app.sandbox.example/logo.png',
    scope: 'openid fhirUser udap user/*.rs',
  })
  return `  ${cli} register --udap --base-url ${dataHolder.baseUrl} --client-uri ${dataHolder.client.clientUri} ${identity} ${udapTrustFlags(dataHolder)} --metadata '${metadata}' ${local}
  ${cli} authorize --udap --base-url ${dataHolder.baseUrl} --client-id <client_id from register> --redirect-uri ${dataHolder.redirectUri} --scope 'openid fhirUser user/*.rs' --idp ${identityProvider.baseUrl} ${identity} ${udapTrustFlags(dataHolder)} ${local}
`
}
