import type { IncomingMessage } from 'node:http'

/** Bodies larger than this are refused; oidc-provider itself stops at 56 KiB. */
export const maximumRequestBodyBytes = 1024 * 1024

/** The request body, or `undefined` when it exceeded {@link maximumRequestBodyBytes}. */
export async function readRequestBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let received = 0
  for await (const chunk of request) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))
    received += bytes.length
    if (received > maximumRequestBodyBytes) return undefined
    chunks.push(bytes)
  }
  return Buffer.concat(chunks, received)
}
