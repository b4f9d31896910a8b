/**
 * A JSON document as a tree of nodes that is always rendered to text, never built as live
 * objects first. Hostile documents need what live objects cannot hold safely: a member named
 * `__proto__` (an assignment would change the prototype instead), duplicate member names,
 * numbers such as `1e400`, and nesting 100 000 levels deep (which `JSON.stringify` cannot
 * write: it recurses). The library then parses the text the way it parses a server's body.
 */

/** One JSON value. `deep` and `huge` stand for text too large to build as nodes. */
export type JsonNode =
  | { readonly kind: 'literal'; readonly value: null | boolean | number | string }
  | { readonly kind: 'raw'; readonly text: string }
  | { readonly kind: 'array'; readonly items: readonly JsonNode[] }
  | { readonly kind: 'object'; readonly members: readonly JsonMember[] }
  | { readonly kind: 'deep'; readonly depth: number; readonly container: 'array' | 'object' }
  | { readonly kind: 'huge'; readonly length: number }

/** An object member; names may repeat and may be `__proto__`. */
export type JsonMember = readonly [name: string, value: JsonNode]

/** A literal node. Non-finite numbers become `null`, as `JSON.stringify` would write them. */
export function literal(value: null | boolean | number | string): JsonNode {
  return { kind: 'literal', value }
}

/** An object node with members in order. */
export function objectNode(members: readonly JsonMember[]): JsonNode {
  return { kind: 'object', members }
}

/** Converts a plain JSON value (from `JSON.parse` or a literal in a test) into nodes. */
export function toJsonNode(value: unknown): JsonNode {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') {
    return literal(value)
  }
  if (typeof value === 'number') return literal(value)
  if (Array.isArray(value)) return { kind: 'array', items: value.map(toJsonNode) }
  if (typeof value === 'object') {
    return objectNode(Object.entries(value).map(([name, member]) => [name, toJsonNode(member)]))
  }
  throw new TypeError(`a ${typeof value} is not a JSON value`)
}

/** Writes a node as JSON text. */
export function renderJson(node: JsonNode): string {
  switch (node.kind) {
    case 'literal':
      return typeof node.value === 'number' && !Number.isFinite(node.value)
        ? 'null'
        : JSON.stringify(node.value)
    case 'raw':
      return node.text
    case 'array':
      return `[${node.items.map(renderJson).join(',')}]`
    case 'object':
      return `{${node.members.map(([name, value]) => `${JSON.stringify(name)}:${renderJson(value)}`).join(',')}}`
    case 'deep':
      return node.container === 'array'
        ? `${'['.repeat(node.depth)}${']'.repeat(node.depth)}`
        : `${'{"a":'.repeat(node.depth)}1${'}'.repeat(node.depth)}`
    case 'huge':
      return `"${'A'.repeat(node.length)}"`
  }
}

/** The member value named `name` (the last one, as `JSON.parse` keeps), if any. */
export function memberOf(node: JsonNode, name: string): JsonNode | undefined {
  if (node.kind !== 'object') return undefined
  let found: JsonNode | undefined
  for (const [memberName, value] of node.members) if (memberName === name) found = value
  return found
}

/** A copy of an object node with `name` set to `value` (replaced in place, or appended). */
export function withMember(node: JsonNode, name: string, value: JsonNode): JsonNode {
  if (node.kind !== 'object') return node
  const exists = node.members.some(([memberName]) => memberName === name)
  return objectNode(
    exists
      ? node.members.map(([memberName, old]) => [memberName, memberName === name ? value : old])
      : [...node.members, [name, value]],
  )
}

/** A copy of an object node without the members named `name`. */
export function withoutMember(node: JsonNode, name: string): JsonNode {
  if (node.kind !== 'object') return node
  return objectNode(node.members.filter(([memberName]) => memberName !== name))
}
