import type { ArchiveEntry } from './archive-listing.js'
import { type ArchiveNode, childPath } from './archive-tree.js'

/** One file to unpack: the entry as the archive names it, and where it lands (drive names joined by `/`). */
export interface PlannedFile {
  /** The entry's position in the listing. */
  index: number
  entry: ArchiveEntry
  path: string
}

export type UnpackPlan =
  | { ok: true; files: PlannedFile[]; folders: string[]; totalBytes: number }
  | { ok: false; status: 'NEED_MORE_QUOTA' | 'FILE_TOO_LARGE'; reason: string }

export interface PlanLimits {
  /** The bytes the user may still store (quota left). */
  freeBytes: number
  /** The operator's bound on one unpacking. */
  maxUnpackBytes: number
  /** The most declared bytes per byte of archive. */
  maxRatio: number
  archiveBytes: number
}

/** The node at `path`, file or folder, or null. */
export function findNode(root: ArchiveNode, path: string): ArchiveNode | null {
  let node: ArchiveNode | undefined = root
  for (const segment of path.split('/').filter((s) => s !== '')) {
    if (!node.isFolder) return null
    node = node.children.get(segment)
    if (!node) return null
  }
  return node
}

/**
 * What an unpacking of `paths` (all when empty) writes, from the archive's tree: the files under
 * the chosen nodes with the entries they come from, every folder on the way (empty ones too),
 * and the declared total. Paths keep their place in the archive (`photos/2024/a.jpg` chosen alone
 * lands as that path under the target). Refused before anything is written: a total past the
 * quota left (NEED_MORE_QUOTA) or the operator's bound, or a ratio no real archive has
 * (FILE_TOO_LARGE). Paths must name nodes of the tree (the caller checks, with findNode).
 */
export function planUnpack(entries: readonly ArchiveEntry[], root: ArchiveNode, paths: readonly string[], limits: PlanLimits): UnpackPlan {
  // Each chosen node with its path, as findNode reads it (empty segments dropped).
  const chosen: [ArchiveNode, string][] = []
  for (const path of paths.length === 0 ? [''] : paths) {
    const node = findNode(root, path)
    if (node) chosen.push([node, path.split('/').filter((s) => s !== '').join('/')])
  }
  const files = new Map<string, PlannedFile>()
  const folders = new Set<string>()
  const visit = (node: ArchiveNode, path: string) => {
    if (node.isFolder) {
      if (path !== '') folders.add(path)
      for (const child of node.children.values()) visit(child, childPath(path, child.name))
    } else if (!files.has(path)) {
      files.set(path, { index: node.index, entry: entries[node.index]!, path })
    }
  }
  for (const [node, path] of chosen) {
    // The folders above a chosen node are made too, so it lands at its archive path.
    const segments = path.split('/')
    for (let depth = 1; depth < segments.length; depth++) folders.add(segments.slice(0, depth).join('/'))
    visit(node, path)
  }
  const list = [...files.values()]
  const totalBytes = list.reduce((sum, f) => sum + f.entry.sizeBytes, 0)
  if (totalBytes > limits.maxUnpackBytes) return { ok: false, status: 'FILE_TOO_LARGE', reason: `${totalBytes} bytes are more than one unpacking may write (${limits.maxUnpackBytes})` }
  if (totalBytes > Math.max(1024 * 1024, limits.archiveBytes * limits.maxRatio)) {
    return { ok: false, status: 'FILE_TOO_LARGE', reason: `the archive claims ${totalBytes} bytes from ${limits.archiveBytes}: more than ${limits.maxRatio} times its size` }
  }
  if (totalBytes > limits.freeBytes) return { ok: false, status: 'NEED_MORE_QUOTA', reason: `${totalBytes} bytes do not fit the ${Math.max(0, limits.freeBytes)} bytes left` }
  return { ok: true, files: list, folders: [...folders].sort((a, b) => a.split('/').length - b.split('/').length), totalBytes }
}
