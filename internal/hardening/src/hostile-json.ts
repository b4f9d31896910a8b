import fc from 'fast-check'
import {
  type JsonMember,
  type JsonNode,
  literal,
  objectNode,
  renderJson,
  toJsonNode,
} from './json-text.js'

/**
 * Strings a hostile server puts where the library expects a URL, a code or a name: script and
 * data URLs, plain HTTP, credentials in URLs, protocol-relative and relative URLs, control and
 * bidi characters, a lone surrogate, prototype names and text that looks like something else.
 */
export const hostileStrings: readonly string[] = [
  '',
  ' ',
  'javascript:alert(document.domain)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:application/json,{"access_token":"x"}',
  'http://attacker.example/token',
  'http://127.0.0.1:9/token',
  'https://user:password@attacker.example/token',
  '//attacker.example/token',
  '/relative/token',
  'file:///etc/passwd',
  'https://',
  'https://[::1',
  ' https://padded.example/token ',
  'https://xn--80ak6aa92e.example/',
  '\u0000',
  '\ud800',
  '\u202eevil',
  'null',
  '__proto__',
  'constructor',
  'toString',
  '<html><body>502 Bad Gateway</body></html>',
  '%00%ff%',
  'e'.repeat(600),
]

/** Member names that reach prototypes when a parser merges carelessly. */
export const prototypeMemberNames: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
]

/** The value prototype members carry: enough to show pollution in `({}).polluted`. */
export const pollutingValue: JsonNode = objectNode([
  ['polluted', literal('yes')],
  ['prototype', objectNode([['polluted', literal('yes')]])],
])

/** Number texts `JSON.stringify` never writes: overflow, negative zero, long exponents. */
const rawNumbers = ['1e400', '-1e400', '-0', '1e-400', '123456789012345678901234567890', '0.1e1']

/** A scalar of any JSON type, hostile strings and odd numbers included. */
export const hostileScalar: fc.Arbitrary<JsonNode> = fc.oneof(
  fc.constant(literal(null)),
  fc.boolean().map(literal),
  fc.integer().map(literal),
  fc.double().map(literal),
  fc.string({ unit: 'binary', maxLength: 24 }).map(literal),
  fc.constantFrom(...hostileStrings).map(literal),
  fc.constantFrom(...rawNumbers).map((text): JsonNode => ({ kind: 'raw', text })),
)

/**
 * Nesting far deeper than any real document. Generated cases stay at depths a recursive
 * walk of a few frames per level survives, so one known stack overflow cannot hide every other
 * finding of a property; 100 000 levels are hand-written cases of their own.
 */
export const deepNode: fc.Arbitrary<JsonNode> = fc.record({
  kind: fc.constant('deep' as const),
  depth: fc.constantFrom(64, 1_500),
  container: fc.constantFrom('array' as const, 'object' as const),
})

/** A string of hundreds of kilobytes (still under the 1 MiB body cap). */
export const hugeNode: fc.Arbitrary<JsonNode> = fc.record({
  kind: fc.constant('huge' as const),
  length: fc.constantFrom(70_000, 400_000),
})

/** Any hostile JSON value: scalars, small containers of them, deep nesting, huge strings, prototype members. */
export const hostileValue: fc.Arbitrary<JsonNode> = fc.letrec<{ value: JsonNode }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileScalar,
    fc.array(tie('value'), { maxLength: 4 }).map((items): JsonNode => ({ kind: 'array', items })),
    fc
      .array(
        fc.tuple(
          fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...prototypeMemberNames)),
          tie('value'),
        ),
        { maxLength: 4 },
      )
      .map((members) => objectNode(members as JsonMember[])),
    deepNode,
    hugeNode,
    fc.constant(pollutingValue),
  ),
})).value

/** One change to a JSON object: what a hostile or broken server does to a valid document. */
type MemberMutation =
  | { readonly kind: 'drop'; readonly index: number }
  | { readonly kind: 'replace'; readonly index: number; readonly value: JsonNode }
  | { readonly kind: 'add'; readonly name: string; readonly value: JsonNode }
  | { readonly kind: 'duplicate'; readonly index: number; readonly value: JsonNode }
  | { readonly kind: 'nested'; readonly index: number; readonly mutation: MemberMutation }

const memberMutation: fc.Arbitrary<MemberMutation> = fc.letrec<{ mutation: MemberMutation }>(
  (tie) => ({
    mutation: fc.oneof(
      { depthSize: 'small' },
      fc.record({ kind: fc.constant('drop' as const), index: fc.nat() }),
      fc.record({ kind: fc.constant('replace' as const), index: fc.nat(), value: hostileValue }),
      fc.record({
        kind: fc.constant('add' as const),
        name: fc.oneof(fc.constantFrom(...prototypeMemberNames), fc.string({ maxLength: 12 })),
        value: hostileValue,
      }),
      fc.record({ kind: fc.constant('duplicate' as const), index: fc.nat(), value: hostileValue }),
      fc.record({
        kind: fc.constant('nested' as const),
        index: fc.nat(),
        mutation: tie('mutation'),
      }),
    ),
  }),
).mutation

function applyMutation(node: JsonNode, mutation: MemberMutation): JsonNode {
  if (node.kind === 'array') {
    // Arrays mutate like objects whose member names are ignored when rendered back.
    const asObject = objectNode(node.items.map((item, index) => [String(index), item]))
    const mutated = applyMutation(asObject, mutation)
    return mutated.kind === 'object'
      ? { kind: 'array', items: mutated.members.map(([, value]) => value) }
      : mutated
  }
  if (node.kind !== 'object') return mutation.kind === 'replace' ? mutation.value : node
  const { members } = node
  if (mutation.kind === 'add') return objectNode([...members, [mutation.name, mutation.value]])
  if (members.length === 0) return node
  const index = mutation.index % members.length
  const [name, value] = members[index] as JsonMember
  switch (mutation.kind) {
    case 'drop':
      return objectNode(members.filter((_, position) => position !== index))
    case 'replace':
      return objectNode(
        members.map((member, position) => (position === index ? [name, mutation.value] : member)),
      )
    case 'duplicate':
      return objectNode([...members, [name, mutation.value]])
    case 'nested':
      return objectNode(
        members.map((member, position) =>
          position === index ? [name, applyMutation(value, mutation.mutation)] : member,
        ),
      )
  }
}

/**
 * A valid document changed by one to four member mutations (dropped, replaced by another JSON
 * type, added — prototype names included —, duplicated, or changed one level down), or
 * replaced as a whole by a hostile value of the wrong shape.
 */
export function mutatedDocument(valid: unknown): fc.Arbitrary<JsonNode> {
  const base = toJsonNode(valid)
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .array(memberMutation, { minLength: 1, maxLength: 4 })
        .map((mutations) => mutations.reduce(applyMutation, base)),
    },
    { weight: 1, arbitrary: hostileValue },
  )
}

/** Text-level damage to a valid body: what a proxy, a truncated stream or a broken server sends. */
export function damagedText(validText: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.nat({ max: Math.max(0, validText.length - 1) }).map((end) => validText.slice(0, end)),
    fc
      .tuple(
        fc.nat({ max: validText.length }),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }),
      )
      .map(([at, text]) => `${validText.slice(0, at)}${text}${validText.slice(at)}`),
    fc.constantFrom(
      `\ufeff${validText}`,
      `)]}'\n${validText}`,
      `${validText}${validText}`,
      `${validText} trailing`,
      validText.replaceAll('"', "'"),
      '',
      'null',
      'NaN',
      '<!doctype html><title>Bad Gateway</title>',
    ),
    fc.string({ unit: 'binary', maxLength: 64 }),
  )
}

/** A generated body text that prints briefly in fast-check's counterexample reports. */
export interface HostileText {
  readonly text: string
}

/** Wraps a text so a failing property reports its length and beginning, not megabytes of it. */
export function describedText(text: string): HostileText {
  return {
    text,
    [fc.toStringMethod]: () => `text(${text.length} chars: ${JSON.stringify(text.slice(0, 160))}…)`,
  } as HostileText
}

/**
 * A hostile response body for an exchange whose valid body is `valid`: a mutated document
 * (rendered as text), or text damage to the valid one. Mostly the former, so most cases reach
 * the checks after JSON parsing.
 */
export function hostileBody(valid: unknown): fc.Arbitrary<HostileText> {
  const validText = renderJson(toJsonNode(valid))
  return fc
    .oneof(
      { weight: 4, arbitrary: mutatedDocument(valid).map(renderJson) },
      { weight: 1, arbitrary: damagedText(validText) },
    )
    .map(describedText)
}
