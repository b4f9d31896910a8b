import { concatBytes as concat, encodeDer, readDerElement } from '@fhir-auth/core/backend'
import fc from 'fast-check'
import { mutatedBytes } from './hostile-bytes.js'

/**
 * Structure-aware mutants of DER documents (certificates, CRLs): the document is read as a tree
 * — constructed elements and the DER nested in OCTET and BIT STRINGs (extension values, keys) —
 * one to three elements anywhere in it are changed (tag, content, dropped, repeated, swapped with
 * a sibling, replaced by an element of another document), and the tree is encoded again with
 * correct lengths. Byte-level damage (`mutatedBytes`) stops at the outer framing; these reach
 * every field reader behind it.
 */

interface DerNode {
  tag: number
  /** Primitive content; absent when `children` is set. */
  content?: Uint8Array
  children?: DerNode[]
  /** DER nested in an OCTET STRING, or in a BIT STRING after its unused-bits octet. */
  nested?: 'octet-string' | 'bit-string'
}

const constructedBit = 0x20

/** Every element of `bytes`, or `undefined` when they are not a whole sequence of elements. */
function readAll(bytes: Uint8Array): DerNode[] | undefined {
  const nodes: DerNode[] = []
  let offset = 0
  try {
    while (offset < bytes.length) {
      const element = readDerElement(bytes, offset)
      nodes.push(readNode(element.tag, element.content))
      offset += element.bytes.length
    }
  } catch {
    return undefined
  }
  return nodes
}

function readNode(tag: number, content: Uint8Array): DerNode {
  if (tag & constructedBit) {
    const children = readAll(content)
    if (children !== undefined) return { tag, children }
  }
  if (tag === 0x04 && content.length > 1) {
    const children = readAll(content)
    if (children?.length === 1) return { tag, children, nested: 'octet-string' }
  }
  if (tag === 0x03 && content[0] === 0 && content.length > 2) {
    const children = readAll(content.subarray(1))
    if (children?.length === 1) return { tag, children, nested: 'bit-string' }
  }
  return { tag, content }
}

function encodeNode(node: DerNode): Uint8Array {
  if (node.children === undefined) return encodeDer(node.tag, node.content ?? new Uint8Array())
  const inner = concat(...node.children.map(encodeNode))
  return encodeDer(node.tag, node.nested === 'bit-string' ? concat(Uint8Array.of(0), inner) : inner)
}

function clone(node: DerNode): DerNode {
  return {
    ...node,
    ...(node.children === undefined ? {} : { children: node.children.map(clone) }),
  }
}

/** Every node with its parent (the root has none), depth first. */
function nodesOf(root: DerNode): { node: DerNode; parent: DerNode | undefined }[] {
  const found: { node: DerNode; parent: DerNode | undefined }[] = []
  const visit = (node: DerNode, parent: DerNode | undefined) => {
    found.push({ node, parent })
    for (const child of node.children ?? []) visit(child, node)
  }
  visit(root, undefined)
  return found
}

/** Tags that the X.509 readers branch on. */
const interestingTags = [
  0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x0c, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1c, 0x1e, 0x30, 0x31,
  0x80, 0x81, 0x82, 0x86, 0x87, 0x88, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5,
]

/** Contents that the value readers trip over: empty, signs, padding, surrogates, junk. */
const interestingContents: readonly Uint8Array[] = [
  new Uint8Array(),
  Uint8Array.of(0x00),
  Uint8Array.of(0xff),
  Uint8Array.of(0x00, 0x00, 0x01),
  Uint8Array.of(0xff, 0xff),
  Uint8Array.of(0x80),
  Uint8Array.of(0x08, 0x00),
  Uint8Array.of(0xd8, 0x00),
  Uint8Array.of(0x2a, 0x80),
  new TextEncoder().encode('20250101000000.5Z'),
  new TextEncoder().encode('0050010100000Z'),
  new TextEncoder().encode('991231235960Z'),
]

const operations = ['tag', 'content', 'flip', 'drop', 'repeat', 'swap', 'transplant'] as const

interface TreeMutation {
  readonly operation: (typeof operations)[number]
  readonly at: number
  readonly choice: number
  readonly bytes: Uint8Array
}

const treeMutation: fc.Arbitrary<TreeMutation> = fc.record({
  operation: fc.constantFrom(...operations),
  at: fc.nat(),
  choice: fc.nat(),
  bytes: fc.uint8Array({ maxLength: 8 }),
})

function applyTreeMutation(
  root: DerNode,
  donors: readonly DerNode[],
  mutation: TreeMutation,
): void {
  const all = nodesOf(root)
  const { node, parent } = all[mutation.at % all.length] as (typeof all)[number]
  const siblings = parent?.children
  const index = siblings?.indexOf(node) ?? -1
  switch (mutation.operation) {
    case 'tag':
      node.tag = interestingTags[mutation.choice % interestingTags.length] as number
      return
    case 'content':
      delete node.children
      delete node.nested
      node.content =
        mutation.choice % 3 === 0
          ? mutation.bytes
          : (interestingContents[mutation.choice % interestingContents.length] as Uint8Array)
      return
    case 'flip': {
      if (node.content === undefined || node.content.length === 0) return
      const content = node.content.slice()
      const at = mutation.choice % content.length
      content[at] = (content[at] as number) ^ ((mutation.bytes[0] ?? 0) | 0x01)
      node.content = content
      return
    }
    case 'drop':
      if (siblings !== undefined) siblings.splice(index, 1)
      return
    case 'repeat':
      if (siblings !== undefined) siblings.splice(index, 0, clone(node))
      return
    case 'swap': {
      if (siblings === undefined || siblings.length < 2) return
      const other = mutation.choice % siblings.length
      siblings[index] = siblings[other] as DerNode
      siblings[other] = node
      return
    }
    case 'transplant': {
      if (siblings === undefined) return
      const donor = donors[mutation.choice % donors.length]
      if (donor === undefined) return
      const pool = nodesOf(donor)
      const transplanted = pool[(mutation.choice >> 4) % pool.length]?.node ?? donor
      siblings[index] = clone(transplanted)
      return
    }
  }
}

/**
 * Mutants of `valid`: half structure-aware (one to three tree mutations, elements taken from
 * `donors` too), half byte-level damage (`mutatedBytes`).
 */
export function derMutants(
  valid: Uint8Array,
  donors: readonly Uint8Array[],
): fc.Arbitrary<Uint8Array> {
  const [root] = readAll(valid) ?? []
  if (root === undefined) throw new Error('derMutants needs one valid DER document')
  const donorTrees = donors.flatMap((donor) => readAll(donor) ?? [])
  const structural = fc.array(treeMutation, { minLength: 1, maxLength: 3 }).map((mutations) => {
    const tree = clone(root)
    for (const mutation of mutations) applyTreeMutation(tree, donorTrees, mutation)
    return encodeNode(tree)
  })
  return fc.oneof(structural, mutatedBytes(valid))
}
