import { FILE_KIND, FOLDER_KIND, type DecompressEntry } from '@cumulus/protocol'
import { mimeTypeOf, nameKey, splitExtension } from '../../domain/index.js'
import type { ArchiveEntry } from './archive-listing.js'
import { entrySegments } from './entry-path.js'

/** Deeper or longer names than any real archive holds are left out of the tree. */
const MAX_DEPTH = 128
const MAX_NAME_CHARS = 4096

/**
 * A node keeps its own name only: its path is its parents' names, joined where a level is listed
 * or planned. Kept on every node, paths cost the sum of every prefix of every name (a crafted
 * archive of 3,000 names 128 levels deep held 886 MB of them).
 */
interface Node {
  name: string
  isFolder: boolean
  sizeBytes: number
  /** The archive index of the first entry at or under this node. */
  index: number
  children: Map<string, Node>
}

/**
 * The archive as a tree of drive names (entry-path.ts rules): folders the entries imply are
 * made, a folder's size is what it holds, and links are left out (never unpacked). A file and
 * a folder of the same name (possible in a crafted archive) are kept apart as the drive would
 * keep them: the later one is left out.
 */
export function archiveTree(entries: ArchiveEntry[]): Node {
  const root: Node = { name: '', isFolder: true, sizeBytes: 0, index: 0, children: new Map() }
  entries.forEach((entry, index) => {
    // Links are never unpacked; names past the bounds (a crafted 64 KB name is 32,000 folders
    // deep) are left out.
    if (entry.isLink || entry.name.length > MAX_NAME_CHARS) return
    const segments = entrySegments(entry.name)
    if (!segments || segments.length > MAX_DEPTH) return
    let node = root
    const passed: Node[] = [root]
    for (const [depth, segment] of segments.entries()) {
      const isLast = depth === segments.length - 1
      const isFolder = !isLast || entry.isDirectory
      let child = node.children.get(segment)
      if (!child) {
        child = { name: segment, isFolder, sizeBytes: 0, index, children: new Map() }
        node.children.set(segment, child)
      } else if (child.isFolder !== isFolder) {
        return
      }
      node = child
      passed.push(child)
    }
    if (!entry.isDirectory) for (const node of passed) node.sizeBytes += entry.sizeBytes
  })
  return root
}

/** The node at `path` ('' or 'dir/sub'), or null. */
export function nodeAt(root: Node, path: string): Node | null {
  let node: Node | undefined = root
  for (const segment of path.split('/').filter((s) => s !== '')) {
    node = node.children.get(segment)
    if (!node?.isFolder) return null
  }
  return node
}

/** Joins a node's path ('' for the root) and a child's name. */
export function childPath(path: string, name: string): string {
  return path === '' ? name : `${path}/${name}`
}

/** One level, the node at `path`, as the list call shows it: folders first, then files, each in natural name order. */
export function levelEntries(node: Node, path: string): DecompressEntry[] {
  return [...node.children.values()]
    .sort((a, b) => Number(b.isFolder) - Number(a.isFolder) || (nameKey(a.name) < nameKey(b.name) ? -1 : nameKey(a.name) > nameKey(b.name) ? 1 : 0))
    .map((child) => ({
      index: child.index,
      filename: child.name,
      filesize: String(child.sizeBytes),
      mime_type: child.isFolder ? '' : mimeTypeOf(splitExtension(child.name).extension),
      gcid: '',
      kind: child.isFolder ? FOLDER_KIND : FILE_KIND,
      icon_link: '',
      path: childPath(path, child.name),
    }))
}

export type ArchiveNode = Node
