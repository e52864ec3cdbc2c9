// What grew between two heap snapshots of the same process (the ones `BENCH_SOAK_SNAPSHOTS=true
// npm run bench -- soak` writes, or any two from v8.writeHeapSnapshot):
//
//   node --max-old-space-size=4096 bench/lib/heap-growth.mjs before.heapsnapshot after.heapsnapshot [groups]
//
// V8 keeps a JavaScript object's snapshot id for its whole life, so an object of `after` whose id
// is not in `before` was allocated in between and survived the full GC a snapshot starts with.
// Those objects are grouped by kind (strings together, objects by constructor), biggest first,
// and for each group the retainer paths most of them hang from are printed (array indices
// collapsed to #): a cache shows up as one Map holding them all, and its bound is then in the
// code that fills it. Compiled code and embedder (native) nodes are left out: code grows as
// functions get optimised, and native nodes get new ids in every snapshot.
import { readFileSync } from 'node:fs'

const SAMPLES_PER_GROUP = 400
const PATHS_PER_GROUP = 5
const PATH_DEPTH = 6

function load(path) {
  const snapshot = JSON.parse(readFileSync(path, 'utf8'))
  const meta = snapshot.snapshot.meta
  const nodeFields = meta.node_fields
  const edgeFields = meta.edge_fields
  return {
    nodes: snapshot.nodes,
    edges: snapshot.edges,
    strings: snapshot.strings,
    nodeTypes: meta.node_types[0],
    edgeTypes: meta.edge_types[0],
    nf: nodeFields.length,
    ef: edgeFields.length,
    count: snapshot.nodes.length / nodeFields.length,
    at: {
      type: nodeFields.indexOf('type'),
      name: nodeFields.indexOf('name'),
      id: nodeFields.indexOf('id'),
      size: nodeFields.indexOf('self_size'),
      edgeCount: nodeFields.indexOf('edge_count'),
      edgeType: edgeFields.indexOf('type'),
      edgeName: edgeFields.indexOf('name_or_index'),
      to: edgeFields.indexOf('to_node'),
    },
  }
}

const [beforePath, afterPath, groupsArg] = process.argv.slice(2)
if (!beforePath || !afterPath) {
  process.stderr.write('usage: node --max-old-space-size=4096 bench/lib/heap-growth.mjs before.heapsnapshot after.heapsnapshot [groups]\n')
  process.exit(2)
}

const before = load(beforePath)
const oldIds = new Set()
for (let n = 0; n < before.count; n++) oldIds.add(before.nodes[n * before.nf + before.at.id])

const h = load(afterPath)
const type = (n) => h.nodeTypes[h.nodes[n * h.nf + h.at.type]]
const name = (n) => h.strings[h.nodes[n * h.nf + h.at.name]]
const selfSize = (n) => h.nodes[n * h.nf + h.at.size]

// The first few strong retainers of every node (edges reversed).
const firstEdge = new Uint32Array(h.count + 1)
for (let n = 0, e = 0; n < h.count; n++) {
  firstEdge[n] = e
  e += h.nodes[n * h.nf + h.at.edgeCount] * h.ef
}
firstEdge[h.count] = h.edges.length
const retainers = Array.from({ length: h.count }, () => [])
for (let n = 0; n < h.count; n++) {
  for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += h.ef) {
    const edgeType = h.edgeTypes[h.edges[e + h.at.edgeType]]
    if (edgeType === 'weak') continue
    const to = h.edges[e + h.at.to] / h.nf
    const label = edgeType === 'element' || edgeType === 'hidden' ? '#' : h.strings[h.edges[e + h.at.edgeName]]
    if (retainers[to].length < 4) retainers[to].push([n, /^\d+$/.test(label) ? '#' : label])
  }
}

function retainerPath(n) {
  const steps = []
  const seen = new Set([n])
  for (let depth = 0, current = n; depth < PATH_DEPTH; depth++) {
    const next = retainers[current].find(([parent]) => !seen.has(parent) && type(parent) !== 'synthetic')
    if (!next) break
    const [parent, label] = next
    steps.push(`${label} <- ${type(parent)} ${name(parent).slice(0, 40)}`)
    seen.add(parent)
    current = parent
  }
  return steps.join('  ') || '(root)'
}

const groups = new Map()
for (let n = 0; n < h.count; n++) {
  const t = type(n)
  if (oldIds.has(h.nodes[n * h.nf + h.at.id]) || ['code', 'hidden', 'synthetic', 'object shape', 'native'].includes(t)) continue
  const key = t.includes('string') ? t : `${t} ${name(n).slice(0, 60)}`
  const group = groups.get(key) ?? { count: 0, bytes: 0, members: [] }
  group.count++
  group.bytes += selfSize(n)
  group.members.push(n)
  groups.set(key, group)
}

const shown = [...groups.entries()].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(groupsArg ?? 12))
const totalBytes = [...groups.values()].reduce((sum, g) => sum + g.bytes, 0)
console.log(`new objects: ${[...groups.values()].reduce((sum, g) => sum + g.count, 0)}, ${(totalBytes / 1024).toFixed(0)} KiB self size (code and native nodes left out)`)
for (const [key, group] of shown) {
  console.log(`\n${key}: ${group.count} new, ${(group.bytes / 1024).toFixed(0)} KiB`)
  const step = Math.max(1, Math.floor(group.members.length / SAMPLES_PER_GROUP))
  const paths = new Map()
  let sampled = 0
  for (let i = 0; i < group.members.length; i += step) {
    const path = retainerPath(group.members[i])
    paths.set(path, (paths.get(path) ?? 0) + 1)
    sampled++
  }
  for (const [path, count] of [...paths.entries()].sort((a, b) => b[1] - a[1]).slice(0, PATHS_PER_GROUP)) {
    console.log(`  ${((100 * count) / sampled).toFixed(0).padStart(3)}%  ${path}`)
  }
}
