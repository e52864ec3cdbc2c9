/** The content codings the web plugin sends: precompressed or cached variants, or the bytes as they are. */
export type ContentCoding = 'br' | 'gzip' | 'identity'
/** The codings a variant can have, in the server's order of preference (smaller first). */
export const VARIANT_CODINGS = ['br', 'gzip'] as const
export type VariantCoding = (typeof VARIANT_CODINGS)[number]

/** A qvalue (RFC 9110 §12.4.2): 0 to 1 with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

/**
 * Which coding to send (RFC 9110 §12.5.3): the available coding the request's Accept-Encoding
 * weighs highest, ties going to the server's order (br, gzip, identity). `available` lists the
 * variants that exist; identity always does.
 *
 * - No header: identity. Any coding would be allowed, but a client that names none (curl, most
 *   scripts) gets the bytes it can read.
 * - `q=0` refuses a coding; `*` weighs every coding not named; `identity` is acceptable unless
 *   refused by `identity;q=0`, or by `*;q=0` without an `identity` entry. Not named, it weighs
 *   as little as the least wanted coding that is (as the `negotiator` package does), so
 *   `br;q=0.8, gzip;q=0.8` still gets br: the spec makes identity acceptable, not preferred.
 * - An entry with a malformed qvalue is ignored, so a garbled header never selects a coding
 *   the client did not clearly accept. `x-gzip` is gzip (§8.4.1.3).
 * - When every coding, identity included, is refused, identity is sent anyway: the spec allows
 *   disregarding the header rather than answering 406, and a page that loads beats an error.
 */
export function negotiateEncoding(header: string | undefined, available: readonly VariantCoding[]): ContentCoding {
  if (header === undefined) return 'identity'
  const weights = new Map<string, number>()
  for (const entry of header.split(',')) {
    const [rawName = '', ...parameters] = entry.split(';')
    let name = rawName.trim().toLowerCase()
    if (name === '') continue
    if (name === 'x-gzip') name = 'gzip'
    let weight = 1
    for (const parameter of parameters) {
      const [key = '', value = ''] = parameter.split('=', 2).map((part) => part.trim())
      if (key.toLowerCase() !== 'q') continue
      weight = QVALUE.test(value) ? Number(value) : Number.NaN
    }
    if (Number.isNaN(weight) || weights.has(name)) continue
    weights.set(name, weight)
  }
  const any = weights.get('*')
  const leastWanted = Math.min(1, ...[...weights.values()].filter((weight) => weight > 0))
  const weightOf = (coding: ContentCoding): number => weights.get(coding) ?? any ?? (coding === 'identity' ? leastWanted : 0)
  let best: ContentCoding = 'identity'
  let bestWeight = 0
  for (const coding of [...VARIANT_CODINGS.filter((c) => available.includes(c)), 'identity' as const]) {
    const weight = weightOf(coding)
    if (weight > bestWeight) {
      best = coding
      bestWeight = weight
    }
  }
  return best
}
