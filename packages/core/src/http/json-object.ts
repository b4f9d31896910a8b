/** A parsed JSON object (not an array, not null). */
export type JsonRecord = Record<string, unknown>

/** True for a JSON object: an object that is neither `null` nor an array. */
export function isJsonObject(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
