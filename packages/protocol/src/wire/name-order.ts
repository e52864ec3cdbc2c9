/**
 * The order of names in a drive listing (drive.md: natural order for names), shared by the
 * drive, which stores the key and lets the database sort by it byte-wise, and by clients, which
 * place a new file among those already shown exactly where the server would list it.
 */

const DIGITS = /\d+/g
const NUMBER_WIDTH = 20

/**
 * The natural-order sort key of a name ("file2" before "file10"): case folded, and every run of
 * digits zero-padded to a fixed width so numbers compare by value. Keys compare byte-wise in
 * UTF-8 (`compareCodePoints`); the server breaks ties by id.
 */
export function driveNameKey(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(DIGITS, (run) => {
      const value = run.replace(/^0+(?=\d)/, '')
      return value.length >= NUMBER_WIDTH ? value : value.padStart(NUMBER_WIDTH, '0')
    })
}

/**
 * Compares two strings as the databases compare the keys: by UTF-8 bytes, which is the order of
 * code points (JavaScript's `<` compares UTF-16 units, which differs past U+FFFF).
 */
export function compareCodePoints(a: string, b: string): number {
  const left = a[Symbol.iterator]()
  const right = b[Symbol.iterator]()
  for (;;) {
    const x = left.next()
    const y = right.next()
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1
    const difference = x.value.codePointAt(0)! - y.value.codePointAt(0)!
    if (difference !== 0) return difference
  }
}
