/**
 * Not filled in yet: this package exports nothing until its issue lands.
 *
 * @packageDocumentation
 */
export {}
