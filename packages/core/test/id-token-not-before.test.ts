/**
 * `nbf` in an ID token (RFC 7519 §4.1.5): when present it must be a number, and not in the
 * future beyond the 60 s leeway.
 */
import { expect, it } from 'vitest'
import { verifyIdToken } from '../src/oidc.js'
import {
  expectationsFor,
  expectReason,
  goodClaims,
  keySet,
  nowSeconds,
  sign,
  signer,
} from './support/id-token-fixtures.js'

it('refuses an nbf in the future beyond the leeway as nbf, and accepts one at its edge', async () => {
  const rsa = await signer('RS256', 'rsa')
  const { set } = keySet([rsa.jwk])
  const expectations = expectationsFor(set)
  const early = verifyIdToken(await sign(rsa, goodClaims({ nbf: nowSeconds + 61 })), expectations)
  await expect(early).rejects.toThrow('the ID token is not valid yet (nbf is in the future)')
  await expectReason(early, 'nbf')
  for (const nbf of [nowSeconds + 60, nowSeconds, nowSeconds - 3600]) {
    await expect(
      verifyIdToken(await sign(rsa, goodClaims({ nbf })), expectations),
    ).resolves.toMatchObject({ nbf })
  }
})

it('refuses an nbf that is not a number as malformed', async () => {
  const rsa = await signer('RS256', 'rsa')
  const { set } = keySet([rsa.jwk])
  for (const nbf of [String(nowSeconds), null, true, [nowSeconds], { at: nowSeconds }]) {
    const refused = verifyIdToken(await sign(rsa, goodClaims({ nbf })), expectationsFor(set))
    await expect(refused).rejects.toThrow('the ID token nbf is not a number')
    await expectReason(refused, 'malformed')
  }
})
