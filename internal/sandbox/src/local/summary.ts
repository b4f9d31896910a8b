import type { LocalSandboxesDescription } from './local-sandboxes.js'

/**
 * The text `pnpm sandbox` prints for a person: the servers, a ready client of each kind and
 * CLI commands to try against them (from the repository root).
 */
export function localSandboxesSummary(description: LocalSandboxesDescription): string {
  const { smart, udap } = description
  const cli = 'pnpm -s fhir-auth'
  const local = '--allow-insecure-localhost'
  const udapTrust = [
    `--trust-anchor ${udap.trustAnchorFile}`,
    ...udap.crlFiles.map((file) => `--crl ${file}`),
  ].join(' ')
  return `fhir-auth sandbox: local SMART and UDAP servers on 127.0.0.1 (Ctrl-C stops them)

SMART (oidc-provider)
  base URL              ${smart.baseUrl}
  redirect URI          ${smart.redirectUri}   (never contacted: paste the URL you land on)
  public client         ${smart.publicClient.clientId}
  symmetric client      ${smart.symmetricClient.clientId}   secret ${smart.symmetricClient.clientSecret}
  web app (example)     ${smart.webAppClient.clientId}   secret ${smart.webAppClient.clientSecret}   redirect ${smart.webAppClient.redirectUri}
  browser app (example) ${smart.browserAppClient.clientId}   redirect ${smart.browserAppClient.redirectUri}
  backend client        ${smart.backendClient.clientId}   key ${smart.backendClient.keyFile}   kid ${smart.backendClient.kid}
  initial access token  ${smart.initialAccessToken}   (RFC 7591 registration)

UDAP
  base URL              ${udap.baseUrl}
  trust anchor          ${udap.trustAnchorFile}
  CRLs                  ${udap.crlFiles.join('\n                        ')}
  client URI            ${udap.client.clientUri}
  client key            ${udap.client.keyFile}
  client chain          ${udap.client.certificateChainFile}

Files are in ${description.directory}

Try it (from the repository root, in another terminal):
  ${cli} discover ${smart.baseUrl} ${local}
  ${cli} token --base-url ${smart.baseUrl} --client-id ${smart.backendClient.clientId} --key ${smart.backendClient.keyFile} --kid ${smart.backendClient.kid} --scope '${smart.backendClient.scope}' ${local}
  ${cli} authorize --base-url ${smart.baseUrl} --client-id ${smart.publicClient.clientId} --redirect-uri ${smart.redirectUri} --scope 'launch/patient patient/*.rs' ${local}
  ${cli} discover ${udap.baseUrl} --udap ${udapTrust} ${local}
  ${cli} token --udap --base-url ${udap.baseUrl} --client-uri ${udap.client.clientUri} --key ${udap.client.keyFile} --cert ${udap.client.certificateChainFile} ${udapTrust} --scope 'system/*.rs' --b2b-organization-id ${udap.b2b.organizationId} --b2b-purpose-of-use '${udap.b2b.purposeOfUse}' ${local}
`
}
