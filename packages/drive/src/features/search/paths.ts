import { type Kysely, sql } from 'kysely'
import type { DriveDatabase } from '../../db/schema.js'

/** Deeper than any tree the drive makes (unpacking stops at 128 levels): a corrupt cycle ends here. */
const MAX_DEPTH = 512

/**
 * The path ("/Movies/2024") and name of each folder in `folderIds` ('' is the root: "/" and ''),
 * in one recursive query up the tree for the whole page, whatever its depth.
 */
export async function folderPaths(db: Kysely<DriveDatabase>, userId: string, folderIds: readonly string[]): Promise<Map<string, { path: string; name: string }>> {
  const paths = new Map<string, { path: string; name: string }>([['', { path: '/', name: '' }]])
  const wanted = [...new Set(folderIds.filter((id) => id !== ''))]
  if (wanted.length === 0) return paths
  // The owner as an expression, not a column: with `user_id = ?` SQLite walks the user's whole
  // (user_id, …) index instead of probing the primary key for each id (2.7 ms for 10 ids of 20,000).
  const owned = (alias: string) => sql`${sql.ref(`${alias}.user_id`)} || '' = ${userId}`
  const { rows } = await sql<{ start: string; name: string; depth: number }>`
    with recursive up (start, parent_id, name, depth) as (
      select f.id, f.parent_id, f.name, 0 from drive_files f where f.id in (${sql.join(wanted)}) and ${owned('f')}
      union all
      select up.start, p.parent_id, p.name, up.depth + 1 from up join drive_files p on p.id = up.parent_id
      where up.parent_id <> '' and ${owned('p')} and up.depth < ${MAX_DEPTH}
    )
    select start, name, depth from up`.execute(db)
  const chains = new Map<string, { name: string; depth: number }[]>()
  for (const row of rows) {
    const chain = chains.get(row.start)
    if (chain) chain.push(row)
    else chains.set(row.start, [row])
  }
  for (const [id, chain] of chains) {
    chain.sort((a, b) => Number(b.depth) - Number(a.depth))
    paths.set(id, { path: `/${chain.map((c) => c.name).join('/')}`, name: chain[chain.length - 1]!.name })
  }
  return paths
}
