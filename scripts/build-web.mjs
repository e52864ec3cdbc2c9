#!/usr/bin/env node
// Builds the web app (`react-router build` in packages/web) when its output is missing or older
// than its sources or the packages it bundles. `--force` always builds. Run after `tsc -b`: the
// bundle imports @cumulus/protocol and @cumulus/sdk from their dist/.
//
// After the build it writes a brotli (`.br`) and a gzip (`.gz`) sibling of every compressible
// file in build/client, which the web plugin serves by Accept-Encoding (decision 012). This
// happens here, not in a Vite plugin, because only the finished folder is complete: React
// Router copies assets from the server build into build/client after Vite's client build has
// written its bundle, and public/ files are copied by Vite outside the bundle hooks.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib'

const root = fileURLToPath(new URL('..', import.meta.url))
const web = join(root, 'packages/web')
const output = join(web, 'build/server/index.js')
const client = join(web, 'build/client')
const inputs = ['scripts/build-web.mjs', 'packages/web/app', 'packages/web/public', 'packages/web/src/public-config.ts', 'packages/web/vite.config.ts', 'packages/web/react-router.config.ts', 'packages/web/package.json', 'packages/protocol/dist', 'packages/sdk/dist']

/** The newest modification time under a file or folder. */
function newest(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs)
}

export function webBuildIsStale() {
  if (!existsSync(output)) return true
  const built = statSync(output).mtimeMs
  return inputs.some((input) => existsSync(join(root, input)) && newest(join(root, input)) > built)
}

export function buildWeb({ force = false } = {}) {
  if (!force && !webBuildIsStale()) return 0
  const cli = [join(web, 'node_modules/@react-router/dev/bin.js'), join(root, 'node_modules/@react-router/dev/bin.js')].find((path) => existsSync(path))
  if (!cli) throw new Error('build-web: @react-router/dev is not installed; run npm ci first.')
  const result = spawnSync(process.execPath, [cli, 'build'], { cwd: web, stdio: ['ignore', 'inherit', 'inherit'] })
  if (result.status !== 0) return result.status ?? 1
  const { written, bytes } = precompressClient()
  console.log(`build-web: wrote ${written} precompressed variants (.br, .gz) in build/client, ${(bytes / 1024).toFixed(0)} KiB`)
  return 0
}

/** Text formats worth compressing; images and fonts (png, webp, woff2) are compressed already. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.webmanifest', '.txt', '.xml', '.ico', '.map'])
/** Below this a compressed body saves less than the Content-Encoding and Vary headers cost. */
const MIN_COMPRESS_BYTES = 1024
/** A variant must save at least this share of the file, or the file is served as it is. */
const MIN_SAVING = 0.1
const VARIANTS = [
  // Quality 11 is slow (about a second for the framework chunk) but runs once per build.
  { extension: '.br', encode: (body) => brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } }) },
  { extension: '.gz', encode: (body) => gzipSync(body, { level: 9 }) },
]

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]))
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of build/client, replacing
 * older ones, and deletes a variant that is no longer worth keeping. Returns what it wrote.
 */
export function precompressClient(dir = client) {
  const files = filesUnder(dir)
  const all = new Set(files)
  const variants = new Set(files.filter((file) => VARIANTS.some((v) => file.endsWith(v.extension) && all.has(file.slice(0, -v.extension.length)))))
  let written = 0
  let bytes = 0
  for (const file of files) {
    if (variants.has(file)) continue
    const body = COMPRESSIBLE.has(extname(file).toLowerCase()) ? readFileSync(file) : null
    for (const variant of VARIANTS) {
      const target = file + variant.extension
      const encoded = body && body.length >= MIN_COMPRESS_BYTES ? variant.encode(body) : null
      if (encoded && encoded.length <= body.length * (1 - MIN_SAVING)) {
        writeFileSync(target, encoded)
        written++
        bytes += encoded.length
      } else if (variants.has(target)) {
        rmSync(target)
      }
    }
  }
  return { written, bytes }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const status = buildWeb({ force: process.argv.includes('--force') })
  if (status !== 0) console.error('build-web: the web app build failed (see above).')
  process.exit(status)
}
