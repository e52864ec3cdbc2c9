/**
 * aria2's bitfield for `have` (one flag per piece): hex digits, piece 0 in the highest bit of the
 * first digit, as `aria2.tellStatus` reports it.
 */
export function bitfieldOf(have: readonly boolean[]): string {
  let hex = ''
  for (let i = 0; i < have.length; i += 4) {
    let digit = 0
    for (let bit = 0; bit < 4; bit++) if (have[i + bit]) digit |= 8 >> bit
    hex += digit.toString(16)
  }
  return hex
}
