import { AppError, GenericErrors } from '@cumulus/protocol'

/** drive.md `filters`: a JSON object of conditions, `{"field": {"op": value}}`. */

export function invalidFilter(description: string, field: string): AppError {
  return new AppError(GenericErrors.invalid_argument, { description, metadata: { field } })
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The raw `filters` read into a lookup of its conditions (`condition("kind")` is `{eq: …}` or
 * undefined), or null when there are none. Malformed JSON, or a condition that is not an object,
 * is invalid_argument naming the field.
 */
export function filterConditions(raw: string | undefined): ((key: string) => Record<string, unknown> | undefined) | null {
  if (raw === undefined || raw.trim() === '') return null
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    throw invalidFilter('filters is not valid JSON', 'filters')
  }
  if (!isObject(json)) throw invalidFilter('filters must be a JSON object', 'filters')
  return (key) => {
    const value = json[key]
    if (value === undefined || value === null) return undefined
    if (!isObject(value)) throw invalidFilter(`filters.${key} must be an object`, `filters.${key}`)
    return value
  }
}

/** An RFC 3339 bound of `filters.modified_time`, in milliseconds. */
export function filterTime(value: unknown, bound: string): number {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN
  if (!Number.isFinite(ms)) throw invalidFilter(`filters.modified_time.${bound} must be an RFC 3339 time`, 'filters.modified_time')
  return ms
}
