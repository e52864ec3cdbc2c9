/** Splits `items` into chunks small enough for one statement's bound parameters (SQLite and PostgreSQL). */
export function chunks<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** Sum of a column over rows a statement returned (PostgreSQL may hand bigints back as strings). */
export function sumOf(rows: readonly { size: number | string }[]): number {
  let total = 0
  for (const r of rows) total += Number(r.size)
  return total
}
