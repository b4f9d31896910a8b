/**
 * `fetchMissingIssuers`: when a chain stops short of its trust anchor, the caIssuers URLs of its
 * top certificate are fetched and the missing issuer appended, up to four times; nothing is
 * fetched for a chain that is complete, and nothing fetched that does not fit is kept.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { ParsedCertificate } from '../../../src/x509/certificate.js'
import { encodeDerSequence } from '../../../src/x509/der.js'
import {
  fetchMissingIssuers,
  maxCaIssuersUrls,
  maxFetchedIssuers,
} from '../../../src/x509/revocation-online/missing-issuers.js'
import {
  createOnlineRevocation,
  type OnlineRevocation,
} from '../../../src/x509/revocation-online/online-revocation.js'
import { type Answer, fetchStub } from '../fixtures/fetch-stub.js'
import {
  type CertificateOptions,
  certsOnlyPkcs7,
  createCertificate,
  integer,
  type TestCertificate,
} from '../fixtures/online-pki.js'

const origin = 'http://ca.example.test'
const url = (path: string) => `${origin}/${path}`

let root: TestCertificate
/** Intermediates under the root, each issued by the one before: levels[0] by the root. */
let levels: TestCertificate[]
let leaf: TestCertificate
let served: Record<string, Answer>

beforeAll(async () => {
  root = await createCertificate({ commonName: 'Root', ca: true })
  levels = []
  let issuer = root
  for (let level = 0; level < 6; level++) {
    issuer = await createCertificate({
      commonName: `Level ${level}`,
      ca: true,
      issuer,
      ...(level === 0 ? {} : { caIssuers: [url(`level-${level - 1}.cer`)] }),
    })
    levels.push(issuer)
  }
  leaf = await createCertificate({
    commonName: 'Leaf',
    issuer: levels[0],
    caIssuers: [url('level-0.cer')],
  })
  served = Object.fromEntries(levels.map((level, index) => [url(`level-${index}.cer`), level.der]))
})

const parsed = (certificates: readonly TestCertificate[]) =>
  certificates.map((certificate) => certificate.parsed)
const subjects = (chain: readonly ParsedCertificate[]) =>
  chain.map((certificate) => certificate.subject)

async function complete(
  chain: readonly TestCertificate[],
  anchors: readonly TestCertificate[] = [root],
  answers: Record<string, Answer> = served,
  revocation?: OnlineRevocation,
) {
  const stub = fetchStub(answers)
  const completed = await fetchMissingIssuers(
    parsed(chain),
    parsed(anchors),
    revocation ?? createOnlineRevocation({ fetch: stub.fetch }),
  )
  return { chain: subjects(completed), requested: stub.requests.map((request) => request.url) }
}

const leafUnder = (issuer: TestCertificate, options: Partial<CertificateOptions>) =>
  createCertificate({ commonName: 'Leaf', issuer, ...options })

describe('fetchMissingIssuers', () => {
  it('appends the issuer the top certificate names, until the anchor issued the top', async () => {
    expect(await complete([leaf])).toEqual({
      chain: ['CN=Leaf', 'CN=Level 0'],
      requested: [url('level-0.cer')],
    })
  })

  it('fetches one level after another, at most four', async () => {
    expect(maxFetchedIssuers).toBe(4)
    const deep = await leafUnder(levels[5] as TestCertificate, { caIssuers: [url('level-5.cer')] })
    expect(await complete([deep])).toEqual({
      chain: ['CN=Leaf', 'CN=Level 5', 'CN=Level 4', 'CN=Level 3', 'CN=Level 2'],
      requested: [url('level-5.cer'), url('level-4.cer'), url('level-3.cer'), url('level-2.cer')],
    })
    const three = await leafUnder(levels[2] as TestCertificate, { caIssuers: [url('level-2.cer')] })
    expect((await complete([three])).chain).toEqual([
      'CN=Leaf',
      'CN=Level 2',
      'CN=Level 1',
      'CN=Level 0',
    ])
  })

  it('fetches nothing for a complete chain', async () => {
    const level1 = levels[1] as TestCertificate
    const under1 = await leafUnder(level1, { caIssuers: [url('level-1.cer')] })
    // A self-signed root naming where a namesake is published: never followed.
    const selfSigned = await createCertificate({
      commonName: 'Level 0',
      ca: true,
      caIssuers: [url('level-0.cer')],
    })
    const cases: [TestCertificate[], TestCertificate[]][] = [
      // Self-signed top (an untrusted root stays untrusted).
      [[selfSigned], []],
      [[levels[0] as TestCertificate, root], []],
      // The top is itself an anchor (an intermediate trusted directly).
      [
        [under1, level1],
        [root, level1],
      ],
      // An anchor has the name of the top's issuer.
      [[under1], [root, level1]],
      // The issuer is already in the chain, out of order.
      [[level1, under1], [root]],
      // No chain at all.
      [[], [root]],
    ]
    for (const [chain, anchors] of cases) {
      expect(await complete(chain, anchors)).toEqual({
        chain: subjects(parsed(chain)),
        requested: [],
      })
    }
  })

  it('tries the next URL when one fails or sends no certificate', async () => {
    const several = await leafUnder(levels[0] as TestCertificate, {
      caIssuers: [url('missing.cer'), url('html.cer'), url('level-0.cer')],
    })
    expect(
      await complete([several], [root], {
        ...served,
        [url('html.cer')]: new TextEncoder().encode('<html>'),
      }),
    ).toEqual({
      chain: ['CN=Leaf', 'CN=Level 0'],
      requested: [url('missing.cer'), url('html.cer'), url('level-0.cer')],
    })
  })

  it('keeps nothing that is not the issuer, and stops when no URL has it', async () => {
    const wrong = await leafUnder(levels[0] as TestCertificate, {
      caIssuers: [url('level-3.cer'), url('bad.p7c')],
    })
    const badBundle = certsOnlyPkcs7([
      encodeDerSequence(integer(1)),
      (levels[4] as TestCertificate).der,
    ])
    expect(await complete([wrong], [root], { ...served, [url('bad.p7c')]: badBundle })).toEqual({
      chain: ['CN=Leaf'],
      requested: [url('level-3.cer'), url('bad.p7c')],
    })
  })

  it('skips what does not parse in a bundle and takes the issuer from the rest', async () => {
    const bundled = await leafUnder(levels[0] as TestCertificate, {
      caIssuers: [url('bundle.p7c')],
    })
    const bundle = certsOnlyPkcs7([
      encodeDerSequence(integer(1)),
      (levels[3] as TestCertificate).der,
      (levels[0] as TestCertificate).der,
    ])
    expect((await complete([bundled], [root], { [url('bundle.p7c')]: bundle })).chain).toEqual([
      'CN=Leaf',
      'CN=Level 0',
    ])
  })

  describe('several certificates with the issuer name', () => {
    let namesake: TestCertificate
    let keyless: TestCertificate
    beforeAll(async () => {
      // Same subject as Level 0, another key (a re-keyed CA), and one without key identifiers.
      namesake = await createCertificate({ commonName: 'Level 0', ca: true, issuer: root })
      keyless = await createCertificate({
        commonName: 'Level 0',
        ca: true,
        issuer: root,
        withoutKeyIds: true,
      })
    })

    const pick = async (leafOptions: Partial<CertificateOptions>, bundle: TestCertificate[]) => {
      const candidate = await leafUnder(levels[0] as TestCertificate, {
        caIssuers: [url('bundle.p7c')],
        ...leafOptions,
      })
      const stub = fetchStub({
        [url('bundle.p7c')]: certsOnlyPkcs7(bundle.map((each) => each.der)),
      })
      const chain = await fetchMissingIssuers(
        [candidate.parsed],
        [root.parsed],
        createOnlineRevocation({ fetch: stub.fetch }),
      )
      return chain[1]?.der
    }

    it('prefers the one whose key the top names', async () => {
      const level0 = levels[0] as TestCertificate
      expect(await pick({}, [keyless, namesake, level0])).toEqual(level0.der)
    })

    it('takes the first when the top names no key', async () => {
      expect(await pick({ withoutKeyIds: true }, [keyless, namesake])).toEqual(keyless.der)
    })

    it('takes the first when none has the key the top names', async () => {
      expect(await pick({}, [keyless, namesake])).toEqual(keyless.der)
    })
  })

  it('tries the next URL when the revocation source fails outright', async () => {
    const several = await leafUnder(levels[0] as TestCertificate, {
      caIssuers: [url('throws.cer'), url('level-0.cer')],
    })
    const real = createOnlineRevocation({ fetch: fetchStub(served).fetch })
    const revocation: OnlineRevocation = {
      ...real,
      certificates: async (location) => {
        if (location === url('throws.cer')) throw new TypeError('store down')
        return real.certificates(location)
      },
    }
    expect((await complete([several], [root], {}, revocation)).chain).toEqual([
      'CN=Leaf',
      'CN=Level 0',
    ])
  })

  it('asks at most eight caIssuers URLs for one chain, all certificates together', async () => {
    expect(maxCaIssuersUrls).toBe(8)
    const missing = Array.from({ length: 7 }, (_, index) => url(`missing-${index}.cer`))
    // Seven URLs that fail, then the eighth has the issuer: it is asked and appended.
    const eighth = await leafUnder(levels[0] as TestCertificate, {
      caIssuers: [...missing, url('level-0.cer')],
    })
    expect(await complete([eighth])).toEqual({
      chain: ['CN=Leaf', 'CN=Level 0'],
      requested: [...missing, url('level-0.cer')],
    })
    // One more failing URL first: the ninth, which has the issuer, is never asked.
    const ninth = await leafUnder(levels[0] as TestCertificate, {
      caIssuers: [...missing, url('missing-7.cer'), url('level-0.cer')],
    })
    expect(await complete([ninth])).toEqual({
      chain: ['CN=Leaf'],
      requested: [...missing, url('missing-7.cer')],
    })
    // The budget is the chain's: seven spent on the leaf leave one for Level 0's issuer.
    const deep = await leafUnder(levels[1] as TestCertificate, {
      caIssuers: [...missing, url('level-1.cer')],
    })
    expect(await complete([deep])).toEqual({
      chain: ['CN=Leaf', 'CN=Level 1'],
      requested: [...missing, url('level-1.cer')],
    })
  })
})
