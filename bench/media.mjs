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
//   Transcode: a BENCH_MEDIA_CLIP_SECONDS (60) 1920x1080 test clip (ffmpeg's testsrc2 and a tone,
//   made first) uploaded over HTTP by a member of the composed server (SQLite, local disk, jobs
//   running, TRANSCODE_ON=upload, the default preset). Ours: from the upload's last byte until
//   the video's renditions are recorded (`drive_media.transcode_state = 'ready'`): the job's
//   pickup, the probe, ffmpeg, hashing and storing the three renditions. Baseline: the same
//   ffmpeg command (@cumulus/drive transcodeArgs) run directly on the same file. Baseline first,
//   then ours. Goal: baseline time / our time >= 0.9 (our overhead is orchestration only).
//
//   First segment: pressing play on the transcoded video as a player does it, over a real socket:
//   the video's detail (GET /drive/v1/files/{id}), the master playlist, the tallest rendition's
//   playlist, then its init section and first segment (byte ranges). Five tries; the slowest
//   counts. Goal: < 1000 ms.
//
// Runs against the built packages (`npx tsc -b`). Everything stays in this process (ffmpeg in
// children) and on local disk; HTTP goes to 127.0.0.1 only.
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'

import { THUMBNAIL_PX, ensureThumbnail, ladderFor, probeVideo, transcodeArgs } from '@cumulus/drive'
import { grantVip } from '@cumulus/identity'
import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { buildServer, loadConfig } from '@cumulus/server'
import sharp from 'sharp'
import { freePort, machineEnvironment, pct, writeResults } from './lib/harness.mjs'

const CPU_COUNT = availableParallelism()
const GOALS = { thumbnailRatio: 0.8, transcodeRatio: 0.9, firstSegmentMs: 1000 }
const CONCURRENCY = 2
const SIZES = [[640, 480], [1024, 768], [1600, 1200], [2048, 1365], [3000, 2000]]
const FORMATS = ['jpeg', 'jpeg', 'jpeg', 'png', 'webp']

function settings() {
  const raw = process.env.BENCH_MEDIA_PHOTOS
  const photos = raw === undefined || raw === '' ? 1000 : Number(raw)
  if (!Number.isInteger(photos) || photos < 1) throw new Error(`BENCH_MEDIA_PHOTOS must be a whole number >= 1, got ${JSON.stringify(raw)}`)
  const rawClip = process.env.BENCH_MEDIA_CLIP_SECONDS
  const clipSeconds = rawClip === undefined || rawClip === '' ? 60 : Number(rawClip)
  if (!Number.isInteger(clipSeconds) || clipSeconds < 1) throw new Error(`BENCH_MEDIA_CLIP_SECONDS must be a whole number >= 1, got ${JSON.stringify(rawClip)}`)
  const only = (process.env.BENCH_ONLY ?? 'thumbnails,transcode').split(',').map((p) => p.trim())
  return { photos, clipSeconds, only, logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn' }
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

/** Thumbnails of `s.photos` photos through ensureThumbnail vs sharp alone; returns its report lines and figures. */
async function thumbnails(s, log) {
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
    const valid = made === s.photos
    const pass = valid && ratio >= GOALS.thumbnailRatio
    return {
      valid,
      lines: [
        `  thumbnails: ${s.photos} photos, ${inputMiB.toFixed(0)} MiB in all, ${CONCURRENCY} at a time`,
        `    ours ${ours.toFixed(1)} images/s  baseline (sharp alone) ${baseline.toFixed(1)} images/s  ratio ${ratio.toFixed(2)}  goal >= ${GOALS.thumbnailRatio}  ${pass ? 'pass' : valid ? 'MISSED' : `INVALID (${made} of ${s.photos} made)`}`,
      ],
      data: { photos: s.photos, inputMiB, rounds, oursMs, baselineMs, ours, baseline, ratio, made },
    }
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Runs ffmpeg with `args` to its end; resolves with the elapsed milliseconds. */
function runFfmpeg(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.on('data', (chunk) => (err = (err + chunk).slice(-2000)))
    child.once('error', reject)
    child.once('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`ffmpeg exited ${code}: ${err}`))))
  })
}

/** One request to the server over its socket, body read to the end; resolves with the response and the body's bytes. */
async function fetchAll(url, init = {}) {
  const response = await fetch(url, init)
  const body = Buffer.from(await response.arrayBuffer())
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url} -> ${response.status} ${body.toString().slice(0, 200)}`)
  return { response, body }
}

/** The transcode of a 1080p clip through the product vs the same ffmpeg command alone, then the first segment's latency. */
async function transcode(s, log) {
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-bench-transcode-'))
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const server = await buildServer(loadConfig({ CUMULUS_DATA_DIR: join(dir, 'data'), LOG_LEVEL: s.logLevel, PORT: String(port), CAPTCHA_MODE: 'off', PUBLIC_URL: origin, TRANSCODE_ON: 'upload' }), { web: false, housekeeping: false })
  try {
    await server.app.listen({ host: '127.0.0.1', port })
    log(`[transcode] making a ${s.clipSeconds} s 1080p clip…`)
    const clipPath = join(dir, 'clip.mp4')
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${s.clipSeconds}`, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${s.clipSeconds}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clipPath])
    const clip = readFileSync(clipPath)

    // Baseline: the product's own command, on the same file, straight from a shell's point of view.
    const probe = await probeVideo('ffprobe', clipPath)
    const rungs = ladderFor(probe)
    const out = join(dir, 'baseline')
    for (const rung of rungs) mkdirSync(join(out, rung.name), { recursive: true })
    const args = transcodeArgs(clipPath, rungs, (rung) => join(out, rung.name), { preset: server.drive.config.transcode.preset, hasAudio: probe.hasAudio })
    log(`[transcode] baseline: ffmpeg alone (${rungs.map((r) => r.name).join(', ')}, preset ${server.drive.config.transcode.preset})…`)
    const baselineMs = await runFfmpeg(args)

    log('[transcode] ours: a member uploads it, the job transcodes it…')
    const signUp = await fetchAll(`${origin}/v1/auth/signup/anonymously`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: WEB_CLIENT_ID }) })
    const { access_token: token, sub } = JSON.parse(signUp.body.toString())
    await grantVip(server.identity, { user: sub, days: 30, year: false })
    const auth = { authorization: `Bearer ${token}` }
    const created = JSON.parse((await fetchAll(`${origin}/drive/v1/files`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'drive#file', name: 'bench.mp4', size: String(clip.byteLength), upload_type: 'UPLOAD_TYPE_RESUMABLE', resumable: { provider: 'PROVIDER_TUS' } }) })).body.toString())
    await fetchAll(created.resumable.params.endpoint, { method: 'PATCH', headers: { ...auth, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: clip })
    const uploadedAt = performance.now()
    const fileId = created.file.id
    const file = JSON.parse((await fetchAll(`${origin}/drive/v1/files/${fileId}`, { headers: auth })).body.toString())
    let media
    for (;;) {
      media = await server.drive.db.selectFrom('drive_media').selectAll().where('gcid', '=', file.hash).executeTakeFirst()
      if (media && (media.transcode_state === 'ready' || media.transcode_state === 'failed' || media.transcode_state === 'unavailable')) break
      await sleep(50)
    }
    const oursMs = performance.now() - uploadedAt
    const valid = media.transcode_state === 'ready'
    const ratio = baselineMs / oursMs

    // Pressing play, five times: detail, master, variant, init section and first segment.
    const tries = []
    for (let i = 0; i < 5 && valid; i++) {
      const started = performance.now()
      const detail = JSON.parse((await fetchAll(`${origin}/drive/v1/files/${fileId}`, { headers: auth })).body.toString())
      const master = (await fetchAll(detail.params.hls_url)).body.toString()
      const variantUrl = master.split('\n').find((line) => line.startsWith('http'))
      const variant = (await fetchAll(variantUrl)).body.toString()
      const map = /#EXT-X-MAP:URI="([^"]+)",BYTERANGE="(\d+)@(\d+)"/.exec(variant)
      const first = /#EXT-X-BYTERANGE:(\d+)@(\d+)/.exec(variant)
      const range = (length, offset) => ({ range: `bytes=${offset}-${Number(offset) + Number(length) - 1}` })
      const [init, segment] = await Promise.all([fetchAll(map[1], { headers: range(map[2], map[3]) }), fetchAll(map[1], { headers: range(first[1], first[2]) })])
      tries.push({ ms: performance.now() - started, bytes: init.body.byteLength + segment.body.byteLength })
    }
    const firstSegmentMs = tries.length > 0 ? Math.max(...tries.map((t) => t.ms)) : null
    const renditions = await server.drive.db.selectFrom('drive_media_renditions').select(['name', 'blob_size', 'bandwidth']).where('gcid', '=', file.hash).execute()
    return {
      valid,
      lines: [
        `  transcode: ${s.clipSeconds} s 1920x1080 clip (${(clip.byteLength / 1024 / 1024).toFixed(0)} MiB) to ${renditions.map((r) => `${r.name} ${(r.blob_size / 1024 / 1024).toFixed(1)} MiB`).join(', ')}`,
        `    ours ${(oursMs / 1000).toFixed(1)} s (upload done -> renditions recorded)  baseline (the same ffmpeg command alone) ${(baselineMs / 1000).toFixed(1)} s  ratio ${ratio.toFixed(2)}  goal >= ${GOALS.transcodeRatio}  ${!valid ? `INVALID (${media.transcode_state})` : ratio >= GOALS.transcodeRatio ? 'pass' : 'MISSED'}`,
        `  first segment: pressing play to the first segment's last byte, slowest of ${tries.length}: ${firstSegmentMs === null ? '-' : `${firstSegmentMs.toFixed(0)} ms`} (tries ${tries.map((t) => t.ms.toFixed(0)).join(', ')} ms; ${tries[0] ? (tries[0].bytes / 1024).toFixed(0) : 0} KiB)  goal < ${GOALS.firstSegmentMs} ms  ${firstSegmentMs !== null && firstSegmentMs < GOALS.firstSegmentMs ? 'pass' : 'MISSED'}`,
      ],
      data: { clipSeconds: s.clipSeconds, clipBytes: clip.byteLength, preset: server.drive.config.transcode.preset, baselineMs, oursMs, ratio, state: media.transcode_state, renditions, firstSegment: tries },
    }
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function main() {
  const s = settings()
  const environment = await machineEnvironment(CPU_COUNT)
  const log = (line) => process.stderr.write(`${line}\n`)
  log(`media bench: ${s.only.join(', ')}; busy before start ${pct(environment.cpuBusyBeforeStart)}`)
  const parts = {}
  if (s.only.includes('thumbnails')) parts.thumbnails = await thumbnails(s, log)
  if (s.only.includes('transcode')) parts.transcode = await transcode(s, log)
  console.log('')
  console.log(`  machine: ${environment.cpus} CPUs (${environment.cpuModel}), Node ${environment.node}; busy before start ${pct(environment.cpuBusyBeforeStart)}`)
  for (const part of Object.values(parts)) {
    console.log('')
    for (const line of part.lines) console.log(line)
  }
  const file = writeResults('media', { benchmark: 'media', settings: s, environment, goals: GOALS, ...Object.fromEntries(Object.entries(parts).map(([name, part]) => [name, part.data])) })
  console.log('')
  console.log(`  results: ${file}`)
  // A missed goal is a finding, not an error; work not done is an error.
  return Object.values(parts).every((part) => part.valid) ? 0 : 1
}
