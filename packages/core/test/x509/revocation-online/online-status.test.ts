/**
 * `checkRevocationOnline`: the order of the sources (each http/https CRL distribution point,
 * then each OCSP responder), which answer decides, and the fail-closed
 * `revocation-unavailable` message naming what each source said. Real CRLs and OCSP answers
 * served by a `fetch` double through `createOnlineRevocation`.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { SignatureCheck } from '../../../src/crypto/backend.js'
import { CertificateChainError } from '../../../src/errors/crypto-error.js'
import {
  encodeOcspRequest,
  ocspCertificateId,
} from '../../../src/x509/revocation-online/ocsp-request.js'
import {
  createOnlineRevocation,
  type OnlineRevocation,
} from '../../../src/x509/revocation-online/online-revocation.js'
import { checkRevocationOnline } from '../../../src/x509/revocation-online/online-status.js'
import { revocationMemory } from '../../../src/x509/revocation-online/revocation-memory.js'
import { type Answer, fetchStub, okResponse } from '../fixtures/fetch-stub.js'
import { nonceExtension, ocspResponse, singleResponse } from '../fixtures/ocsp-responses.js'
import {
  type CertificateOptions,
  createCertificate,
  createCrl,
  day,
  generateKey,
  type TestCertificate,
  type TestKey,
} from '../fixtures/online-pki.js'
import { verifyWithWebCrypto } from '../fixtures/webcrypto-keys.js'

const at = new Date('2027-01-01T00:00:00Z')
const validity = {
  notBefore: new Date('2026-01-01T00:00:00Z'),
  notAfter: new Date('2028-01-01T00:00:00Z'),
}
const origin = 'http://pki.example.test'
const goodCrlUrl = `${origin}/good.crl`
const revokedCrlUrl = `${origin}/revoked.crl`
const staleCrlUrl = `${origin}/stale.crl`
const missingUrl = `${origin}/missing.crl`
const ocspUrl = `${origin}/ocsp`
const otherOcspUrl = `${origin}/ocsp-2`
const leafSerial = Uint8Array.of(0x12, 0x34)

let issuer: TestCertificate
let stranger: TestKey
let answers: Record<string, Answer>

beforeAll(async () => {
  issuer = await createCertificate({ commonName: 'Online Issuer', ca: true, ...validity })
  stranger = await generateKey()
  const current = {
    thisUpdate: new Date(at.getTime() - day),
    nextUpdate: new Date(at.getTime() + day),
  }
  answers = {
    [goodCrlUrl]: (await createCrl(issuer, current)).der,
    [revokedCrlUrl]: (await createCrl(issuer, { ...current, revokedSerials: [leafSerial] })).der,
    [staleCrlUrl]: (
      await createCrl(issuer, {
        thisUpdate: new Date(at.getTime() - 2 * day),
        nextUpdate: new Date(at.getTime() - day),
      })
    ).der,
  }
})

const leaf = (options: Partial<CertificateOptions>) =>
  createCertificate({
    commonName: 'Online Leaf',
    issuer,
    serial: leafSerial,
    ...validity,
    ...options,
  })

/** An OCSP answer about `certificate`, signed by the issuer unless said otherwise. */
async function ocspAnswer(
  certificate: TestCertificate,
  status: 'good' | 'revoked' | 'unknown',
  signer = issuer.key,
): Promise<Uint8Array> {
  const id = await ocspCertificateId(certificate.parsed, issuer.parsed)
  return ocspResponse({
    signer,
    responses: [
      singleResponse({
        certId: id.der,
        status,
        thisUpdate: new Date(at.getTime() - 3_600_000),
        nextUpdate: new Date(at.getTime() + day),
      }),
    ],
  })
}

/**
 * An answer about `certificate` built for each request, its nonce extension carrying what
 * `nonceOf` makes of the request's nonce (the last 34 octets of the request).
 */
function echoingAnswer(
  certificate: TestCertificate,
  status: 'good' | 'revoked',
  nonceOf: (nonce: Uint8Array) => Uint8Array,
): Answer {
  return async (request) => {
    const body = request.body ?? new Uint8Array()
    const id = await ocspCertificateId(certificate.parsed, issuer.parsed)
    const der = await ocspResponse({
      signer: issuer.key,
      responses: [
        singleResponse({
          certId: id.der,
          status,
          thisUpdate: new Date(at.getTime() - 3_600_000),
          nextUpdate: new Date(at.getTime() + day),
        }),
      ],
      extensions: [nonceExtension(nonceOf(body.subarray(body.length - 34)))],
    })
    return okResponse(der)
  }
}

interface Outcome {
  readonly verdict: string
  readonly message?: string
  readonly subject?: string | undefined
}

async function check(
  certificate: TestCertificate,
  extra: Record<string, Answer> = {},
  revocation?: OnlineRevocation,
  verifies: (check: SignatureCheck) => Promise<boolean> = verifyWithWebCrypto,
) {
  const stub = fetchStub({ ...answers, ...extra })
  const online =
    revocation ?? createOnlineRevocation({ cache: revocationMemory(), fetch: stub.fetch })
  let outcome: Outcome
  try {
    await checkRevocationOnline(certificate.parsed, issuer.parsed, online, at, verifies)
    outcome = { verdict: 'good' }
  } catch (error) {
    if (!(error instanceof CertificateChainError)) throw error
    outcome = { verdict: error.reason, message: error.message, subject: error.subject }
  }
  return { ...outcome, requested: stub.requests.map((request) => request.url), stub }
}

const unavailable = (notes: string) =>
  `the revocation status of certificate "CN=Online Leaf" cannot be had (no CRL from "CN=Online Issuer" was supplied): ${notes}`

describe('checkRevocationOnline: CRLs', () => {
  it('is satisfied by a usable CRL that does not list the certificate', async () => {
    const certificate = await leaf({ crlDistributionPoints: [goodCrlUrl], ocsp: [ocspUrl] })
    const outcome = await check(certificate)
    expect(outcome).toMatchObject({ verdict: 'good', requested: [goodCrlUrl] })
  })

  it('refuses a certificate a usable CRL lists, naming it', async () => {
    const certificate = await leaf({ crlDistributionPoints: [revokedCrlUrl, goodCrlUrl] })
    expect(await check(certificate)).toMatchObject({
      verdict: 'revoked',
      subject: 'CN=Online Leaf',
      message: expect.stringContaining('1234'),
      requested: [revokedCrlUrl],
    })
  })

  it('goes on past a point that fails and one whose CRL is not usable', async () => {
    const certificate = await leaf({
      crlDistributionPoints: [missingUrl, staleCrlUrl, goodCrlUrl],
    })
    expect(await check(certificate)).toMatchObject({
      verdict: 'good',
      requested: [missingUrl, staleCrlUrl, goodCrlUrl],
    })
  })

  it('says what each point and the missing responder gave when nothing answers', async () => {
    const certificate = await leaf({
      crlDistributionPoints: [
        'ldap://ldap.example.test/cn=Online%20Issuer?certificateRevocationList',
        missingUrl,
        staleCrlUrl,
      ],
    })
    const outcome = await check(certificate)
    expect(outcome.verdict).toBe('revocation-unavailable')
    expect(outcome.subject).toBe('CN=Online Leaf')
    expect(outcome.message).toBe(
      unavailable(
        'the distribution point "ldap://ldap.example.test/cn=Online%20Issuer?certificateRevocationList" is not fetched; ' +
          'the CRL at http://pki.example.test/missing.crl answered HTTP 404; ' +
          'the CRL at http://pki.example.test/stale.crl is not usable (crl-stale: the CRL from "CN=Online Issuer" is not current at 2027-01-01T00:00:00.000Z (thisUpdate 2026-12-30T00:00:00.000Z, nextUpdate 2026-12-31T00:00:00.000Z)); ' +
          'it names no OCSP responder',
      ),
    )
    expect(outcome.requested).toEqual([missingUrl, staleCrlUrl])
  })

  it('never fetches ldap: or file: points, and names them (at most 200 characters each)', async () => {
    const exactly200 = `file:///${'a'.repeat(192)}`
    const longer = `file:///${'b'.repeat(193)}`
    const certificate = await leaf({ crlDistributionPoints: [exactly200, longer] })
    const outcome = await check(certificate)
    expect(outcome.requested).toEqual([])
    expect(outcome.message).toBe(
      unavailable(
        `the distribution point "${exactly200}" is not fetched; ` +
          `the distribution point "${longer.slice(0, 200)}…" is not fetched; ` +
          'it names no OCSP responder',
      ),
    )
  })

  it('says that a certificate names no distribution point only when it names none', async () => {
    const certificate = await leaf({
      crlDistributionPoints: ['ldap://ldap.example.test/crl', missingUrl],
    })
    expect((await check(certificate)).message).toBe(
      unavailable(
        'the distribution point "ldap://ldap.example.test/crl" is not fetched; the CRL at http://pki.example.test/missing.crl answered HTTP 404; it names no OCSP responder',
      ),
    )
  })

  it('says when the certificate names neither distribution point nor responder', async () => {
    const outcome = await check(await leaf({}))
    expect(outcome.message).toBe(
      unavailable('it names no CRL distribution point; it names no OCSP responder'),
    )
  })

  it('names a body that is not a CRL and a cache that fails', async () => {
    const certificate = await leaf({ crlDistributionPoints: [missingUrl] })
    const html = await check(certificate, { [missingUrl]: new TextEncoder().encode('<html>') })
    expect(html.message).toBe(
      unavailable(
        'the CRL at http://pki.example.test/missing.crl did not send a CRL: malformed DER at offset 0: the content needs 104 bytes, 4 remain; it names no OCSP responder',
      ),
    )
    // A failing cache is a miss (the point is fetched); a source of another making that fails
    // otherwise is named by its error's name only.
    const failing = (thrown: unknown): OnlineRevocation => ({
      ...createOnlineRevocation({ cache: revocationMemory(), fetch: fetchStub().fetch }),
      crl: async () => {
        throw thrown
      },
    })
    for (const [thrown, said] of [
      [new TypeError('store down'), 'TypeError'],
      ['store down', 'failure'],
    ] as const) {
      const outcome = await check(certificate, {}, failing(thrown))
      expect(outcome.message).toBe(
        unavailable(
          `the CRL at http://pki.example.test/missing.crl cannot be had: ${said}; it names no OCSP responder`,
        ),
      )
    }
  })

  it('names a point that cannot be reached, by its URL without query', async () => {
    const certificate = await leaf({ crlDistributionPoints: [`${missingUrl}?secret=1`] })
    const outcome = await check(certificate, {
      [`${missingUrl}?secret=1`]: () => {
        throw new TypeError('connection refused')
      },
    })
    expect(outcome.message).toBe(
      unavailable(
        'the CRL at http://pki.example.test/missing.crl cannot be fetched (network): GET http://pki.example.test/missing.crl failed: network error; it names no OCSP responder',
      ),
    )
  })

  it('judges each CRL once and tells the cache which CRLs are usable', async () => {
    const certificate = await leaf({ crlDistributionPoints: [goodCrlUrl] })
    let verified = 0
    const counting = async (check: SignatureCheck) => {
      verified++
      return verifyWithWebCrypto(check)
    }
    expect((await check(certificate, {}, undefined, counting)).verdict).toBe('good')
    expect(verified).toBe(1)
    const stub = fetchStub(answers)
    const real = createOnlineRevocation({ fetch: stub.fetch })
    const verdicts: boolean[] = []
    const observing: OnlineRevocation = {
      ...real,
      crl: async (url, when, usable) => {
        const stale = await real.crl(staleCrlUrl, when, async () => true)
        const good = await real.crl(url, when, async () => true)
        verdicts.push(await usable(stale), await usable(good))
        return good
      },
    }
    expect((await check(certificate, {}, observing)).verdict).toBe('good')
    expect(verdicts).toEqual([false, true])
  })
})

describe('checkRevocationOnline: OCSP', () => {
  it('asks the responder when no CRL answers, with the CertID and a nonce', async () => {
    const certificate = await leaf({ crlDistributionPoints: [missingUrl], ocsp: [ocspUrl] })
    const outcome = await check(certificate, { [ocspUrl]: await ocspAnswer(certificate, 'good') })
    expect(outcome).toMatchObject({ verdict: 'good', requested: [missingUrl, ocspUrl] })
    const id = await ocspCertificateId(certificate.parsed, issuer.parsed)
    const body = outcome.stub.requests[1]?.body ?? new Uint8Array()
    // The request ends with its nonce extension's value: OCTET STRING of 32 octets.
    const nonce = body.subarray(body.length - 34)
    expect(Array.from(nonce.subarray(0, 2))).toEqual([0x04, 32])
    expect(body).toEqual(encodeOcspRequest(id, nonce))
  })

  it('takes an answer echoing the request nonce, refuses one with another nonce', async () => {
    const certificate = await leaf({ ocsp: [ocspUrl] })
    const echoed = await check(certificate, {
      [ocspUrl]: echoingAnswer(certificate, 'revoked', (nonce) => nonce),
    })
    expect(echoed.verdict).toBe('revoked')
    const other = await check(certificate, {
      [ocspUrl]: echoingAnswer(certificate, 'revoked', (nonce) =>
        Uint8Array.from(nonce, (octet, index) => (index === nonce.length - 1 ? octet ^ 1 : octet)),
      ),
    })
    expect(other.message).toBe(
      unavailable(
        'it names no CRL distribution point; the OCSP answer of http://pki.example.test/ocsp carries another nonce than the request (a replayed or misdirected answer)',
      ),
    )
  })

  it('answers from a kept answer, through another OnlineRevocation on the store, without asking again', async () => {
    const certificate = await leaf({ ocsp: [ocspUrl] })
    const stub = fetchStub({ [ocspUrl]: await ocspAnswer(certificate, 'revoked') })
    const cache = revocationMemory()
    for (let round = 0; round < 2; round++) {
      const online = createOnlineRevocation({ cache, fetch: stub.fetch })
      await expect(
        checkRevocationOnline(certificate.parsed, issuer.parsed, online, at, verifyWithWebCrypto),
      ).rejects.toMatchObject({ reason: 'revoked' })
    }
    expect(stub.count(ocspUrl)).toBe(1)
  })

  it('takes only an explicit good from an OnlineRevocation of another making', async () => {
    const certificate = await leaf({ ocsp: [ocspUrl] })
    const real = createOnlineRevocation({ fetch: fetchStub().fetch })
    // One written for the old `ocsp(url, request)` shape, answering bytes.
    const oldShape = {
      ...real,
      ocsp: async () => Uint8Array.of(0x30, 0x03, 0x0a, 0x01, 0x00),
    } as unknown as OnlineRevocation
    expect((await check(certificate, {}, oldShape)).message).toBe(
      unavailable(
        'it names no CRL distribution point; the OCSP answer of http://pki.example.test/ocsp is no answer',
      ),
    )
    // Nothing, a bare word, a status with its own problem: no answer, never a TypeError.
    for (const [answer, said] of [
      [undefined, 'is no answer'],
      [null, 'is no answer'],
      ['good', 'is no answer'],
      [{ status: 'maybe', problem: 'says maybe' }, 'says maybe'],
    ] as const) {
      const odd = { ...real, ocsp: async () => answer } as unknown as OnlineRevocation
      expect((await check(certificate, {}, odd)).message).toBe(
        unavailable(
          `it names no CRL distribution point; the OCSP answer of http://pki.example.test/ocsp ${said}`,
        ),
      )
    }
  })

  it('refuses a certificate the responder says is revoked', async () => {
    const certificate = await leaf({ ocsp: [ocspUrl, otherOcspUrl] })
    const outcome = await check(certificate, {
      [ocspUrl]: await ocspAnswer(certificate, 'revoked'),
    })
    expect(outcome).toMatchObject({
      verdict: 'revoked',
      subject: 'CN=Online Leaf',
      message:
        'certificate "CN=Online Leaf" (serial 1234) is revoked, says the OCSP responder http://pki.example.test/ocsp for "CN=Online Issuer"',
      requested: [ocspUrl],
    })
  })

  it('goes on past a responder that fails, says unknown or is not the issuer', async () => {
    const certificate = await leaf({
      ocsp: [ocspUrl, otherOcspUrl, `${origin}/ocsp-3`, `${origin}/ocsp-4`],
    })
    const outcome = await check(certificate, {
      [ocspUrl]: new Response('', { status: 500 }),
      [otherOcspUrl]: await ocspAnswer(certificate, 'unknown'),
      [`${origin}/ocsp-3`]: await ocspAnswer(certificate, 'revoked', stranger),
      [`${origin}/ocsp-4`]: await ocspAnswer(certificate, 'good'),
    })
    expect(outcome.verdict).toBe('good')
    expect(outcome.requested).toHaveLength(4)
  })

  it('names what each responder said when none answers', async () => {
    const certificate = await leaf({ ocsp: [ocspUrl, otherOcspUrl, `${origin}/ocsp-3`] })
    const outcome = await check(certificate, {
      [ocspUrl]: new TextEncoder().encode('<html>'),
      [otherOcspUrl]: await ocspAnswer(certificate, 'unknown'),
    })
    expect(outcome.message).toBe(
      unavailable(
        'it names no CRL distribution point; ' +
          'the OCSP responder http://pki.example.test/ocsp did not send an OCSP response: malformed DER at offset 0: the content needs 104 bytes, 4 remain; ' +
          'the OCSP answer of http://pki.example.test/ocsp-2 answers unknown; ' +
          'the OCSP responder http://pki.example.test/ocsp-3 answered HTTP 404',
      ),
    )
  })
})
