// `npm run bench -- sdk-size`: what the SDK costs a web page. Bundles the BUILT SDK
// (packages/sdk/dist/index.js, from `npx tsc -b packages/sdk`) together with @cumulus/protocol
// for the browser as ESM with rolldown, once as is and once minified, gzips the minified entry
// chunk (node:zlib, level 9) and compares that with the goal. Error texts other than en-US load
// lazily per locale (spec 7), so they land in their own chunks; those are reported beside the
// entry, with the entry plus the largest locale chunk as a non-English first visit.
//
// Every export of the SDK is kept (the bundle's entry is the package itself), so this is the
// cost of the whole public API; an app that imports less pays less after tree-shaking.
// A missed goal is a finding, not an error: the exit code is 0 unless bundling fails.
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { rolldown } from 'rolldown'
import { BENCH_DIR, writeResults } from './lib/harness.mjs'

/** The goal, on the minified and gzipped bundle. */
const GOAL_KIB = 12
const GOAL_BYTES = GOAL_KIB * 1024

const ROOT = join(BENCH_DIR, '..')
const ENTRY = join(ROOT, 'packages/sdk/dist/index.js')

/** One browser ESM bundle of the entry; returns the entry chunk and the lazily loaded chunks. */
async function bundle(minify) {
  const build = await rolldown({
    input: ENTRY,
    platform: 'browser',
    // Bundle everything the SDK imports (@cumulus/protocol included); nothing is external.
    logLevel: 'silent',
  })
  try {
    const { output } = await build.generate({ format: 'esm', minify })
    const chunks = output.filter((o) => o.type === 'chunk')
    const entry = chunks.find((c) => c.isEntry)
    if (!entry) throw new Error('no entry chunk')
    const lazy = chunks.filter((c) => !c.isEntry).map((c) => ({ name: c.fileName, bytes: Buffer.byteLength(c.code), gzipBytes: gzipSync(c.code, { level: 9 }).length }))
    const modules = Object.entries(entry.modules).map(([id, m]) => ({ id: id.replace(`${ROOT}/`, ''), renderedBytes: m.renderedLength }))
    return { code: entry.code, modules, lazy }
  } finally {
    await build.close()
  }
}

const kib = (bytes) => `${(bytes / 1024).toFixed(2)} KiB`
const row = (label, bytes) => `  ${label.padEnd(24)} ${String(bytes).padStart(8)} B  ${kib(bytes).padStart(11)}`

export async function main() {
  if (!existsSync(ENTRY)) {
    process.stderr.write(`sdk-size: ${ENTRY} is missing; run \`npx tsc -b packages/sdk\` first\n`)
    return 1
  }
  const started = Date.now()
  const raw = await bundle(false)
  const minified = await bundle(true)
  const rawBytes = Buffer.byteLength(raw.code)
  const minBytes = Buffer.byteLength(minified.code)
  const gzipBytes = gzipSync(minified.code, { level: 9 }).length
  const pass = gzipBytes <= GOAL_BYTES
  // Where the bytes come from, by module as rendered into the unminified bundle.
  const groupOf = (id) => (id.includes('protocol/') ? (id.includes('/messages/') ? 'protocol: error texts (en-US)' : 'protocol: other') : 'sdk')
  const groups = new Map()
  for (const m of raw.modules) groups.set(groupOf(m.id), (groups.get(groupOf(m.id)) ?? 0) + m.renderedBytes)
  const renderedTotal = [...groups.values()].reduce((a, b) => a + b, 0) || 1
  const fromProtocol = raw.modules.filter((m) => m.id.includes('protocol/')).length

  console.log('')
  console.log('Cumulus SDK bundle size')
  console.log(`  entry: packages/sdk/dist/index.js (${statSync(ENTRY).size} B as built), every export kept`)
  console.log(`  bundler: rolldown, platform browser, format esm, @cumulus/protocol bundled in (${raw.modules.length} modules, ${fromProtocol} from protocol)`)
  console.log('')
  console.log(row('bundle (not minified)', rawBytes))
  console.log(row('minified', minBytes))
  console.log(row('minified + gzip -9', gzipBytes))
  const largestLazy = Math.max(0, ...minified.lazy.map((c) => c.gzipBytes))
  console.log(`  lazy chunks (minified + gzip, loaded only for their locale): ${minified.lazy.map((c) => `${c.name} ${c.gzipBytes} B`).join(', ') || 'none'}`)
  console.log(row('entry + largest locale', gzipBytes + largestLazy))
  console.log('')
  console.log('  share of the unminified bundle:')
  for (const [group, bytes] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`    ${group.padEnd(34)} ${String(bytes).padStart(7)} B  ${((100 * bytes) / renderedTotal).toFixed(0).padStart(3)}%`)
  console.log('')
  console.log(`  goal: minified + gzip <= ${GOAL_KIB} KiB (${GOAL_BYTES} B): ${pass ? 'pass' : 'MISSED'} (${kib(gzipBytes)}, ${((100 * gzipBytes) / GOAL_BYTES).toFixed(0)}% of the goal)`)
  const file = writeResults('sdk-size', {
    benchmark: 'sdk-size',
    startedAt: new Date(started).toISOString(),
    node: process.version,
    entry: 'packages/sdk/dist/index.js',
    modules: raw.modules,
    bytes: { raw: rawBytes, minified: minBytes, gzip: gzipBytes },
    goal: { gzipBytes: GOAL_BYTES },
    pass,
  })
  console.log(`  results: ${file}`)
  return 0
}
