/**
 * What the user chose to unpack from an archive: a set of archive paths as the list call gives
 * them (`photos`, `photos/2024/a.jpg`), kept while the user moves between the archive's folders.
 * A folder in the set stands for everything it holds, so the set is kept minimal: no path in it
 * is inside another one, and a folder whose listed entries are all chosen is chosen itself
 * (the top level stays a set of entries: the archive is not an entry). The server unpacks a
 * folder's path with all it holds, so the minimal set is also the shortest request.
 */
export type ArchiveSelection = ReadonlySet<string>

/** The levels the page has listed: a folder's path ('' for the top) -> its entries' paths. */
export type KnownLevels = ReadonlyMap<string, readonly string[]>

/** A row's checkbox: chosen (itself or a folder holding it), partly chosen (a folder with some of its contents chosen), or not. */
export type CheckState = 'all' | 'some' | 'none'

/** Whether `path` is somewhere inside the folder `folder`. */
const isInside = (path: string, folder: string) => path.startsWith(`${folder}/`)

/** The folder holding `path` ('' at the top). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash < 0 ? '' : path.slice(0, slash)
}

export function checkState(selection: ArchiveSelection, path: string): CheckState {
  let some = false
  for (const chosen of selection) {
    if (chosen === path || isInside(path, chosen)) return 'all'
    if (isInside(chosen, path)) some = true
  }
  return some ? 'some' : 'none'
}

/** The selection with `path` (and so all it holds) chosen. */
export function withPath(selection: ArchiveSelection, path: string, levels: KnownLevels): Set<string> {
  if (checkState(selection, path) === 'all') return new Set(selection)
  const next = new Set([...selection].filter((chosen) => !isInside(chosen, path)))
  next.add(path)
  // Folders whose every listed entry is now chosen become one path, up as far as that holds.
  for (let folder = parentOf(path); folder !== ''; folder = parentOf(folder)) {
    const entries = levels.get(folder)
    if (!entries || entries.length === 0 || !entries.every((entry) => next.has(entry))) break
    for (const entry of entries) next.delete(entry)
    next.add(folder)
  }
  return next
}

/**
 * The selection without `path` and all it holds. When a folder holding `path` is chosen, it is
 * replaced by its entries, folder by folder down to `path`, leaving `path` out. That needs each
 * of those folders' listing; if one is not known (the page never listed it), nothing changes
 * rather than a guess at what the folder holds.
 */
export function withoutPath(selection: ArchiveSelection, path: string, levels: KnownLevels): Set<string> {
  const next = new Set([...selection].filter((chosen) => chosen !== path && !isInside(chosen, path)))
  const holder = [...selection].find((chosen) => isInside(path, chosen))
  if (holder === undefined) return next
  next.delete(holder)
  for (let folder = holder; ; ) {
    const entries = levels.get(folder)
    const towards = entries?.find((entry) => entry === path || isInside(path, entry))
    if (!entries || towards === undefined) return new Set(selection)
    for (const entry of entries) if (entry !== towards) next.add(entry)
    if (towards === path) return next
    folder = towards
  }
}

/** A click on a row's checkbox: a chosen row is left out, a partly or not chosen one is chosen whole. */
export function toggled(selection: ArchiveSelection, path: string, levels: KnownLevels): Set<string> {
  return checkState(selection, path) === 'all' ? withoutPath(selection, path, levels) : withPath(selection, path, levels)
}

/** The "select all" checkbox of a level: whether all of its entries, some or none are chosen. */
export function levelState(selection: ArchiveSelection, entries: readonly string[]): CheckState {
  if (entries.length === 0) return 'none'
  const states = entries.map((entry) => checkState(selection, entry))
  if (states.every((state) => state === 'all')) return 'all'
  if (states.every((state) => state === 'none')) return 'none'
  return 'some'
}

/** A click on the "select all" checkbox: with every entry of the level chosen, clears them; otherwise chooses them all. */
export function toggledLevel(selection: ArchiveSelection, entries: readonly string[], levels: KnownLevels): Set<string> {
  const choose = levelState(selection, entries) !== 'all'
  return entries.reduce<Set<string>>((next, entry) => (choose ? withPath(next, entry, levels) : withoutPath(next, entry, levels)), new Set(selection))
}

/** The `files` of the unpack request: the chosen paths, in order; empty (everything) when none is chosen. */
export function unpackFiles(selection: ArchiveSelection): { path: string }[] {
  return [...selection].sort().map((path) => ({ path }))
}
