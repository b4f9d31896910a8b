/** How far a `cause` chain is followed; real chains are two or three links long. */
const maximumCauseDepth = 8

/**
 * The error and each `cause` below it, top first: a link's `cause` is followed while the link
 * is an `Error`, for at most {@link maximumCauseDepth} links below the error.
 */
export function causeLinks(error: unknown): unknown[] {
  const links: unknown[] = []
  let link: unknown = error
  for (let depth = 0; depth <= maximumCauseDepth && link !== undefined; depth++) {
    links.push(link)
    link = link instanceof Error ? link.cause : undefined
  }
  return links
}
