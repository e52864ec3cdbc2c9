// `npm run bench -- media`: what making thumbnails costs, against sharp alone in the same run.
//
//   Thumbnails: BENCH_MEDIA_PHOTOS (1,000) mixed photos (JPEG, PNG and WebP, 640x480 to
//   3000x2000, noisy so they compress like photographs), made in memory first. Ours: each stored
//   in the blob store of the composed server (SQLite, local disk), then its thumbnail made through
//   the product path (@cumulus/drive ensureThumbnail: read the blob, sharp, store the WebP row),
//   with the product's two renders at a time. Baseline: sharp alone on the same buffers, the same
//   resize and WebP settings, two at a time. Two rounds of each, alternating; the faster of each
//   counts. Goal: ours/baseline >= 0.8 (images per second).
//
// Not measured yet: transcoding and HLS playback (issue 13 section 3 is not built).
// Runs against the built packages (`npx tsc -b`). Everything stays in this process and on local disk.
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'

import { THUMBNAIL_PX, ensureThumbnail } from '@cumulus/drive'
import { buildServer, loadConfig } from '@cumulus/server'
import sharp from 'sharp'
import { freePort, machineEnvironment, pct, writeResults } from './lib/harness.mjs'

const CPU_COUNT = availableParallelism()
const GOALS = { thumbnailRatio: 0.8 }
const CONCURRENCY = 2
const SIZES = [[640, 480], [1024, 768], [1600, 1200], [2048, 1365], [3000, 2000]]
const FORMATS = ['jpeg', 'jpeg', 'jpeg', 'png', 'webp']

function settings() {
  const raw = process.env.BENCH_MEDIA_PHOTOS
  const photos = raw === undefined || raw === '' ? 1000 : Number(raw)
  if (!Number.isInteger(photos) || photos < 1) throw new Error(`BENCH_MEDIA_PHOTOS must be a whole number >= 1, got ${JSON.stringify(raw)}`)
  return { photos, logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn' }
}

/** Runs `work` over `items`, `concurrency` at a time; resolves with the elapsed milliseconds. */
async function timed(items, concurrency, work) {
  const started = performance.now()
  let next = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++])
  }))
  return performance.now() - started
}

/**
 * A photo-like image: noise made at a quarter of the size and scaled up (smooth enough to
 * compress like a photograph, not like pure noise), then encoded. Cheap to make, so the
 * thousand inputs take seconds, not minutes.
 */
async function makePhoto(i) {
  const [width, height] = SIZES[i % SIZES.length]
  const format = FORMATS[i % FORMATS.length]
  const small = await sharp({ create: { width: Math.ceil(width / 4), height: Math.ceil(height / 4), channels: 3, noise: { type: 'gaussian', mean: 120 + (i % 60), sigma: 40 } } }).raw().toBuffer({ resolveWithObject: true })
  return sharp(small.data, { raw: small.info }).resize(width, height, { kernel: 'cubic' }).toFormat(format, format === 'png' ? { compressionLevel: 3 } : { quality: 85 }).toBuffer()
}

export async function main() {
  const s = settings()
  const environment = await machineEnvironment(CPU_COUNT)
  const log = (line) => process.stderr.write(`${line}\n`)
  log(`media bench: ${s.photos} photos; busy before start ${pct(environment.cpuBusyBeforeStart)}`)

  log('[thumbnails] making the photos…')
  const photos = new Array(s.photos)
  await timed([...photos.keys()], CPU_COUNT, async (i) => {
    photos[i] = await makePhoto(i)
  })
  const inputMiB = photos.reduce((sum, p) => sum + p.byteLength, 0) / 1024 / 1024

  const dir = mkdtempSync(join(tmpdir(), 'cumulus-bench-media-'))
  const port = await freePort()
  const server = await buildServer(loadConfig({ CUMULUS_DATA_DIR: join(dir, 'data'), LOG_LEVEL: s.logLevel, PORT: String(port), CAPTCHA_MODE: 'off', PUBLIC_URL: `http://127.0.0.1:${port}` }), { web: false, housekeeping: false })
  try {
    log('[thumbnails] storing them as blobs…')
    const gcids = []
    for (const photo of photos) gcids.push((await server.drive.blobs.put(Readable.from([photo]), photo.byteLength)).gcid)

    // Two rounds each, alternating, the faster of each kept: the first pass over 1,000 images
    // also warms the page cache and libvips, which must not count against whichever runs first.
    const baselineRun = () =>
      timed(photos, CONCURRENCY, (photo) =>
        sharp(photo, { limitInputPixels: 100_000_000 }).rotate().resize({ width: THUMBNAIL_PX, height: THUMBNAIL_PX, fit: 'inside', withoutEnlargement: true }).webp({ quality: 72, effort: 3 }).toBuffer(),
      )
    let made = 0
    const oursRun = async () => {
      made = 0
      // A fresh table each round: ensureThumbnail must make every one, not find it stored.
      await server.drive.db.deleteFrom('drive_thumbnails').execute()
      return timed(gcids, CONCURRENCY, async (gcid) => {
        if (await ensureThumbnail(server.drive, gcid, 'IMAGE')) made++
      })
    }
    const rounds = []
    for (let round = 1; round <= 2; round++) {
      log(`[thumbnails] round ${round}: sharp alone…`)
      const baseline = await baselineRun()
      log(`[thumbnails] round ${round}: ensureThumbnail from the blob store…`)
      rounds.push({ baselineMs: baseline, oursMs: await oursRun() })
    }
    const baselineMs = Math.min(...rounds.map((r) => r.baselineMs))
    const oursMs = Math.min(...rounds.map((r) => r.oursMs))
    const ours = s.photos / (oursMs / 1000)
    const baseline = s.photos / (baselineMs / 1000)
    const ratio = ours / baseline
    const pass = made === s.photos && ratio >= GOALS.thumbnailRatio
    console.log('')
    console.log(`  machine: ${environment.cpus} CPUs (${environment.cpuModel}), Node ${environment.node}; busy before start ${pct(environment.cpuBusyBeforeStart)}`)
    console.log(`  ${s.photos} photos, ${inputMiB.toFixed(0)} MiB in all, ${CONCURRENCY} at a time`)
    console.log('')
    console.log(`  thumbnails  ours ${ours.toFixed(1)} images/s  baseline (sharp alone) ${baseline.toFixed(1)} images/s  ratio ${ratio.toFixed(2)}  goal >= ${GOALS.thumbnailRatio}  ${pass ? 'pass' : made === s.photos ? 'MISSED' : `INVALID (${made} of ${s.photos} made)`}`)
    console.log('  transcode, HLS first segment: not built yet (issue 13 section 3)')
    const file = writeResults('media', { benchmark: 'media', settings: s, environment, goals: GOALS, thumbnails: { photos: s.photos, inputMiB, rounds, oursMs, baselineMs, ours, baseline, ratio, made } })
    console.log(`  results: ${file}`)
    // A missed goal is a finding, not an error; thumbnails not made are an error.
    return made === s.photos ? 0 : 1
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

