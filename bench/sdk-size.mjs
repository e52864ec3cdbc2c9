// `npm run bench -- sdk-size`: what the SDK costs a web page. Bundles the BUILT SDK
// (packages/sdk/dist/index.js, from `npx tsc -b packages/sdk`) together with @cumulus/protocol
// for the browser as ESM with rolldown, once as is and once minified, gzips the minified entry
// chunk (node:zlib, level 9) and compares that with the goal. Error texts other than en-US load
// lazily per locale (spec 7), so they land in their own chunks; those are reported beside the
// entry, with the entry plus the largest locale chunk as a non-English first visit.
//
// Two bundles: the identity client (every export but DriveClient, from a generated entry that
// re-exports them: what a page that signs in pays; the goal applies to it), and the whole public
// API with DriveClient, reported beside it. An app that imports less pays less after tree-shaking.
// A missed goal is a finding, not an error: the exit code is 0 unless bundling fails.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { rolldown } from 'rolldown'
import { BENCH_DIR, writeResults } from './lib/harness.mjs'

/** The goal, on the minified and gzipped bundle. */
const GOAL_KIB = 12
const GOAL_BYTES = GOAL_KIB * 1024

const ROOT = join(BENCH_DIR, '..')
const ENTRY = join(ROOT, 'packages/sdk/dist/index.js')

/** One browser ESM bundle of `input`; returns the entry chunk and the lazily loaded chunks. */
async function bundle(minify, input = ENTRY) {
  const build = await rolldown({
    input,
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
const row = (label, bytes) => `  ${label.padEnd(28)} ${String(bytes).padStart(8)} B  ${kib(bytes).padStart(11)}`

export async function main() {
  if (!existsSync(ENTRY)) {
    process.stderr.write(`sdk-size: ${ENTRY} is missing; run \`npx tsc -b packages/sdk\` first\n`)
    return 1
  }
  const started = Date.now()
  // The identity-only entry: every export of the SDK except the drive's.
  const sdk = await import(pathToFileURL(ENTRY).href)
  const identityNames = Object.keys(sdk).filter((name) => !/^Drive|drive/i.test(name))
  const tmp = mkdtempSync(join(tmpdir(), 'cumulus-sdk-size-'))
  const identityEntry = join(tmp, 'identity-entry.js')
  writeFileSync(identityEntry, `export { ${identityNames.join(', ')} } from ${JSON.stringify(pathToFileURL(ENTRY).pathname)}\n`)
  let raw, minified, whole
  try {
    raw = await bundle(false, identityEntry)
    minified = await bundle(true, identityEntry)
    whole = await bundle(true, ENTRY)
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
  const wholeGzip = gzipSync(whole.code, { level: 9 }).length
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
  console.log(`  entry: the identity client: every export of packages/sdk/dist/index.js but the drive's (${identityNames.length} names)`)
  console.log(`  bundler: rolldown, platform browser, format esm, @cumulus/protocol bundled in (${raw.modules.length} modules, ${fromProtocol} from protocol)`)
  console.log('')
  console.log(row('bundle (not minified)', rawBytes))
  console.log(row('minified', minBytes))
  console.log(row('minified + gzip -9', gzipBytes))
  const largestLazy = Math.max(0, ...minified.lazy.map((c) => c.gzipBytes))
  console.log(`  lazy chunks (minified + gzip, loaded only for their locale): ${minified.lazy.map((c) => `${c.name} ${c.gzipBytes} B`).join(', ') || 'none'}`)
  console.log(row('entry + largest locale', gzipBytes + largestLazy))
  console.log(row('whole SDK with DriveClient', wholeGzip))
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
    bytes: { raw: rawBytes, minified: minBytes, gzip: gzipBytes, wholeSdkGzip: wholeGzip },
    goal: { gzipBytes: GOAL_BYTES },
    pass,
  })
  console.log(`  results: ${file}`)
  return 0
}
