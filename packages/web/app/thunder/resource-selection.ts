import type { DriveResource } from '@cumulus/protocol'

/**
 * A previewed torrent's file tree: folders (`is_dir`) hold `dir.resources`; a leaf's `id` is the
 * torrent's file index, what the add call's `fileIndexes` takes.
 */

/** Whether a resource comes with a file tree to choose from (a torrent, a magnet link once resolved). */
export function hasTree(resource: DriveResource): boolean {
  return (resource.dir?.resources?.length ?? 0) > 0
}

/** The files (leaves) below a resource, in tree order. */
export function leavesOf(resource: DriveResource): DriveResource[] {
  const children = resource.dir?.resources ?? []
  return children.flatMap((child) => (child.is_dir || hasTree(child) ? leavesOf(child) : [child]))
}

/** A leaf's or a tree's size in bytes (a wire string); 0 when unknown. */
export function bytesOf(resource: Pick<DriveResource, 'file_size'>): number {
  const value = Number(resource.file_size)
  return Number.isFinite(value) && value > 0 ? value : 0
}

/** How many of a node's files are selected: all, some or none. */
export function selectionState(node: DriveResource, selected: ReadonlySet<string>): 'all' | 'some' | 'none' {
  const leaves = leavesOf(node)
  const count = leaves.filter((leaf) => selected.has(leaf.id)).length
  return count === 0 ? 'none' : count === leaves.length ? 'all' : 'some'
}

/** Selects or clears every file below `node` (or `node` itself when it is a file). */
export function toggled(selected: ReadonlySet<string>, node: DriveResource, on: boolean): Set<string> {
  const next = new Set(selected)
  const ids = node.is_dir || hasTree(node) ? leavesOf(node).map((leaf) => leaf.id) : [node.id]
  for (const id of ids) {
    if (on) next.add(id)
    else next.delete(id)
  }
  return next
}

/** The selected files' indexes in tree order, and their summed size. */
export function chosenFiles(resource: DriveResource, selected: ReadonlySet<string>): { indexes: string[]; bytes: number } {
  const chosen = leavesOf(resource).filter((leaf) => selected.has(leaf.id))
  return { indexes: chosen.map((leaf) => leaf.id), bytes: chosen.reduce((sum, leaf) => sum + bytesOf(leaf), 0) }
}
