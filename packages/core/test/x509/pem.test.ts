import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import {
  certificateDer,
  crlDer,
  splitCertificateInput,
  splitCertificateInputs,
  splitCrlInputs,
} from '../../src/x509/certificate-der.js'
import { decodePemBlocks, encodePem } from '../../src/x509/pem.js'

const der = Uint8Array.from({ length: 100 }, (_, index) => index)

describe('encodePem and decodePemBlocks', () => {
  it('wraps base64 at 64 characters and decodes back', () => {
    const pem = encodePem(der, 'CERTIFICATE')
    const lines = pem.trimEnd().split('\n')
    expect(lines[0]).toBe('-----BEGIN CERTIFICATE-----')
    expect(lines[1]).toHaveLength(64)
    expect(lines.at(-1)).toBe('-----END CERTIFICATE-----')
    expect(decodePemBlocks(pem, 'CERTIFICATE').map((block) => [...block])).toEqual([[...der]])
  })

  it('ends the text with one newline when the body fills its last line', () => {
    const full = Uint8Array.from({ length: 48 }, () => 0xff)
    expect(encodePem(full, 'CERTIFICATE')).toBe(
      `-----BEGIN CERTIFICATE-----\n${'/'.repeat(64)}\n-----END CERTIFICATE-----\n`,
    )
  })

  it('returns every block with the label, in order, ignoring other text and labels', () => {
    const text = `subject=CN=x\r\n${encodePem(Uint8Array.of(1), 'CERTIFICATE').replaceAll('\n', '\r\n')}${encodePem(Uint8Array.of(9), 'X509 CRL')}junk\n${encodePem(Uint8Array.of(2), 'CERTIFICATE')}`
    expect(decodePemBlocks(text, 'CERTIFICATE').map((block) => [...block])).toEqual([[1], [2]])
    expect(decodePemBlocks(text, 'X509 CRL').map((block) => [...block])).toEqual([[9]])
  })

  it('returns [] when there is no block with the label', () => {
    expect(decodePemBlocks('nothing here', 'CERTIFICATE')).toEqual([])
  })

  it.each([
    ['a missing END line', '-----BEGIN CERTIFICATE-----\nAQID\n'],
    ['an empty body', '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n'],
    ['a stray character', '-----BEGIN CERTIFICATE-----\nAQ*D\n-----END CERTIFICATE-----\n'],
    ['wrong padding', '-----BEGIN CERTIFICATE-----\nAQI\n-----END CERTIFICATE-----\n'],
    [
      'an RFC 1421 header',
      '-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\nAQID\n-----END CERTIFICATE-----\n',
    ],
  ])('refuses %s', (_title, text) => {
    expect(() => decodePemBlocks(text, 'CERTIFICATE')).toThrow(CryptoError)
  })

  it('names what is wrong: the block without END, or the number of the block with bad base64', () => {
    const good = encodePem(Uint8Array.of(1), 'CERTIFICATE')
    expect(() =>
      decodePemBlocks(`${good}-----BEGIN CERTIFICATE-----\nAQID\n`, 'CERTIFICATE'),
    ).toThrow(
      new CryptoError('invalid-certificate', 'a PEM CERTIFICATE block has no matching END line'),
    )
    expect(() =>
      decodePemBlocks(
        `${good}-----BEGIN CERTIFICATE-----\n\n-----END CERTIFICATE-----`,
        'CERTIFICATE',
      ),
    ).toThrow(
      new CryptoError('invalid-certificate', 'the PEM CERTIFICATE block 2 is not valid base64'),
    )
    expect(() => decodePemBlocks(42 as unknown as string, 'X509 CRL')).toThrow(
      new CryptoError('invalid-crl', 'PEM input is not a string'),
    )
  })

  it('ends a block at the first END line with its label, and reads on after it', () => {
    const text = [
      '-----BEGIN CERTIFICATE-----',
      'AQ==',
      '-----END X509 CRL-----',
      '-----END CERTIFICATE-----',
      '-----BEGIN CERTIFICATE-----AQI=-----END CERTIFICATE----------BEGIN CERTIFICATE-----',
      'AQID',
      '-----END CERTIFICATE-----',
    ].join('\n')
    expect(() => decodePemBlocks(text, 'CERTIFICATE')).toThrow(/block 1 is not valid base64/)
    const adjacent =
      '-----BEGIN CERTIFICATE-----AQI=-----END CERTIFICATE----------BEGIN CERTIFICATE-----\tAQID\r\n-----END CERTIFICATE-----'
    expect(decodePemBlocks(adjacent, 'CERTIFICATE').map((block) => [...block])).toEqual([
      [1, 2],
      [1, 2, 3],
    ])
  })

  it('chooses the error reason from the label', () => {
    const broken = (label: string) => `-----BEGIN ${label}-----\n!\n-----END ${label}-----`
    for (const [label, reason] of [
      ['PRIVATE KEY', 'invalid-key'],
      ['X509 CRL', 'invalid-crl'],
      ['CERTIFICATE', 'invalid-certificate'],
    ] as const) {
      expect(() => decodePemBlocks(broken(label), label)).toThrow(
        expect.objectContaining({ name: 'CryptoError', reason }),
      )
    }
  })

  it('never puts the PEM body in the message', () => {
    const body = 'MIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA*secret'
    const decode = () =>
      decodePemBlocks(
        `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`,
        'PRIVATE KEY',
      )
    expect(decode).toThrow(
      expect.objectContaining({
        name: 'CryptoError',
        reason: 'invalid-key',
        message: expect.not.stringContaining('MIIB'),
      }),
    )
  })
})

describe('certificateDer and crlDer', () => {
  it('accept PEM text, PEM bytes and DER', () => {
    const pem = encodePem(Uint8Array.of(0x30, 0x00), 'CERTIFICATE')
    expect([...certificateDer(pem)]).toEqual([0x30, 0x00])
    expect([...certificateDer(new TextEncoder().encode(`\n${pem}`))]).toEqual([0x30, 0x00])
    expect([...certificateDer(Uint8Array.of(0x30, 0x00))]).toEqual([0x30, 0x00])
    expect([...crlDer(encodePem(Uint8Array.of(0x30, 0x01, 0x00), 'X509 CRL'))]).toEqual([
      0x30, 0x01, 0x00,
    ])
  })

  it('refuse text without the right block, empty bytes and other types, with their reasons', () => {
    const reasonOf = (operation: () => unknown) => {
      try {
        operation()
      } catch (error) {
        expect(error).toBeInstanceOf(CryptoError)
        return (error as CryptoError).reason
      }
      return 'none'
    }
    expect(reasonOf(() => certificateDer('hello'))).toBe('invalid-certificate')
    expect(reasonOf(() => certificateDer(encodePem(Uint8Array.of(1), 'X509 CRL')))).toBe(
      'invalid-certificate',
    )
    expect(reasonOf(() => certificateDer(new Uint8Array()))).toBe('invalid-certificate')
    expect(reasonOf(() => certificateDer(42 as unknown as string))).toBe('invalid-certificate')
    expect(reasonOf(() => crlDer(encodePem(Uint8Array.of(1), 'CERTIFICATE')))).toBe('invalid-crl')
    expect(reasonOf(() => crlDer({} as unknown as string))).toBe('invalid-crl')
  })
})

describe('splitCertificateInputs and splitCrlInputs', () => {
  const bytesOf = (values: readonly unknown[]) =>
    values.map((value) => (value instanceof Uint8Array ? [...value] : value))
  const certificate = (byte: number) => encodePem(Uint8Array.of(0x30, 0x01, byte), 'CERTIFICATE')

  it('reads every CERTIFICATE block of a PEM entry, in order, between the other entries', () => {
    const bundle = `leaf\n${certificate(1)}issuer\n${certificate(2)}${certificate(3)}`
    const native = { nativeCertificate: true }
    expect(
      bytesOf(splitCertificateInputs([bundle, Uint8Array.of(0x30, 0x00), native, certificate(4)])),
    ).toEqual([[0x30, 1, 1], [0x30, 1, 2], [0x30, 1, 3], [0x30, 0x00], native, [0x30, 1, 4]])
    expect(
      bytesOf(splitCertificateInput(new TextEncoder().encode(bundle.slice('leaf\n'.length)))),
    ).toEqual([
      [0x30, 1, 1],
      [0x30, 1, 2],
      [0x30, 1, 3],
    ])
  })

  it('reads every X509 CRL block of a PEM entry, in order', () => {
    const crls = `${encodePem(Uint8Array.of(7), 'X509 CRL')}${encodePem(Uint8Array.of(8), 'X509 CRL')}`
    expect(bytesOf(splitCrlInputs([crls, Uint8Array.of(9)]))).toEqual([[7], [8], [9]])
  })

  it.each([
    ['text without a block', 'no certificate here'],
    [
      'a malformed second block',
      `${certificate(1)}-----BEGIN CERTIFICATE-----\nAQ*D\n-----END CERTIFICATE-----\n`,
    ],
    ['a second block without its END line', `${certificate(1)}-----BEGIN CERTIFICATE-----\nAQID\n`],
    ['empty bytes', new Uint8Array()],
  ])('refuses %s with CryptoError invalid-certificate', (_title, input) => {
    expect(() => splitCertificateInputs([input])).toThrow(
      expect.objectContaining({ name: 'CryptoError', reason: 'invalid-certificate' }),
    )
  })

  it('refuses a CRL entry without a CRL block with CryptoError invalid-crl', () => {
    expect(() => splitCrlInputs([certificate(1)])).toThrow(
      expect.objectContaining({ name: 'CryptoError', reason: 'invalid-crl' }),
    )
  })
})
