import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JobContext, JobRunner } from '@cumulus/jobs'
import { gcidOfFile } from '../../blobs/gcid.js'
import { withLocalFile } from '../../blobs/local-file.js'
import type { MediaTable } from '../../db/schema.js'
import type { DriveDeps } from '../../deps.js'
import { MEDIA_QUEUE, type MediaJobData, TRANSCODE_QUEUE, addBlobRef, announceBlob, probeOf } from '../../domain/index.js'
import { MediaUnavailable, RENDITION_FILE, type Rung, type VideoProbe, extractSubtitle, ladderFor, probeVideo, runTranscode, transcodeArgs } from './ffmpeg.js'
import { ToolMissing } from '../../lib/tools.js'
import { peakBandwidth } from './playlists.js'

/**
 * The media job (issue 13 §3, decision 026): per video content (GCID), probe it once (size,
 * length, codecs; its text subtitle tracks kept as WebVTT), and when asked, transcode it into the
 * HLS renditions of its ladder. Each rendition is one fMP4 file stored as a blob (counted in
 * drive_blobs like a file's, so the collector deletes it once the video is gone) and a playlist
 * of byte ranges in drive_media_renditions.
 */

/** Transcodes one node runs at once: each already uses every core. */
const TRANSCODE_CONCURRENCY = 1
const PROBE_CONCURRENCY = 2
const MEDIA_MAX_ATTEMPTS = 3
/** The job's lease; progress renews it every second while ffmpeg runs. */
const MEDIA_LEASE_SECONDS = 120
/** Progress is written at most this often. */
const PROGRESS_EVERY_MS = 1000

type MediaDeps = Pick<DriveDeps, 'db' | 'blobs' | 'config' | 'clock' | 'logger'>

/** Probes the video once (the first probe's row wins) and keeps its text subtitle tracks. */
async function ensureProbe(deps: MediaDeps, gcid: string, path: string, signal: AbortSignal): Promise<MediaTable> {
  const stored = await deps.db.selectFrom('drive_media').selectAll().where('gcid', '=', gcid).executeTakeFirst()
  if (stored) return stored
  let probe: VideoProbe | null = null
  const subtitles: { track: number; language: string; title: string; isDefault: boolean; vtt: string }[] = []
  try {
    probe = await probeVideo(deps.config.ffprobePath, path, signal)
    for (const track of probe.subtitles) {
      try {
        subtitles.push({ ...track, vtt: await extractSubtitle(deps.config.ffmpegPath, path, track.track, signal) })
      } catch (err) {
        if (!(err instanceof MediaUnavailable)) throw err
        deps.logger.info({ gcid, track: track.track, reason: err.message }, 'a subtitle track could not be read')
      }
    }
  } catch (err) {
    if (!(err instanceof MediaUnavailable)) throw err
    deps.logger.info({ gcid, reason: err.message }, 'this video cannot be probed')
  }
  const row: MediaTable = { gcid, probe: probe ? JSON.stringify(probe) : null, transcode_state: probe ? 'none' : 'unavailable', transcode_progress: 0, updated_at: deps.clock.nowMs() }
  await deps.db.transaction().execute(async (trx) => {
    const inserted = await trx.insertInto('drive_media').values(row).onConflict((oc) => oc.column('gcid').doNothing()).returning('gcid').executeTakeFirst()
    if (!inserted) return
    for (const s of subtitles) await trx.insertInto('drive_media_subtitles').values({ gcid, track: s.track, language: s.language, title: s.title, is_default: s.isDefault ? 1 : 0, vtt: s.vtt }).execute()
  })
  return (await deps.db.selectFrom('drive_media').selectAll().where('gcid', '=', gcid).executeTakeFirst()) ?? row
}

/** One rendition ffmpeg made, stored as a blob. */
interface MadeRendition {
  rung: Rung
  blobGcid: string
  blobSize: number
  playlist: string
  bandwidth: number
  peakBandwidth: number
}

/** Stores a finished rendition's file as a blob: announced first, then handed to the store (as uploads do). */
async function storeRendition(deps: MediaDeps, rung: Rung, dir: string, duration: number): Promise<MadeRendition> {
  const file = join(dir, RENDITION_FILE)
  const playlist = await readFile(join(dir, 'index.m3u8'), 'utf8')
  const { size } = await stat(file)
  const blobGcid = await gcidOfFile(file, size)
  await announceBlob(deps.db, blobGcid, size, deps.clock.nowMs())
  await deps.blobs.adopt(file, size, blobGcid)
  const bandwidth = duration > 0 ? Math.round((size * 8) / duration) : 0
  return { rung, blobGcid, blobSize: size, playlist, bandwidth, peakBandwidth: Math.max(bandwidth, peakBandwidth(playlist)) }
}

/** Transcodes the video at `path` into its ladder and records the renditions; the job's progress follows ffmpeg's. */
async function transcode(deps: MediaDeps, job: JobContext<MediaJobData>, path: string, probe: VideoProbe): Promise<void> {
  const { gcid } = job.data
  const rungs = ladderFor(probe)
  if (rungs.length === 0) {
    await deps.db.updateTable('drive_media').set({ transcode_state: 'unavailable', updated_at: deps.clock.nowMs() }).where('gcid', '=', gcid).execute()
    return
  }
  await deps.db.updateTable('drive_media').set({ transcode_state: 'running', transcode_progress: 0, updated_at: deps.clock.nowMs() }).where('gcid', '=', gcid).execute()
  const work = await mkdtemp(join(tmpdir(), 'cumulus-transcode-'))
  try {
    const dirOf = (rung: Rung) => join(work, rung.name)
    for (const rung of rungs) await mkdir(dirOf(rung))
    let lastWriteMs = 0
    const onProgress = (outSeconds: number) => {
      const nowMs = deps.clock.nowMs()
      if (nowMs - lastWriteMs < PROGRESS_EVERY_MS) return
      lastWriteMs = nowMs
      // Never 100 before the renditions are recorded.
      const percent = probe.duration > 0 ? Math.min(99, Math.floor((outSeconds / probe.duration) * 100)) : 0
      void deps.db.updateTable('drive_media').set({ transcode_progress: percent, updated_at: nowMs }).where('gcid', '=', gcid).where('transcode_state', '=', 'running').execute().catch(() => undefined)
      void job.progress({ percent }).catch(() => undefined)
    }
    const args = transcodeArgs(path, rungs, dirOf, { preset: deps.config.transcode.preset, hasAudio: probe.hasAudio })
    // A generous bound for a stuck ffmpeg: twenty times the video's length, at least an hour.
    await runTranscode(deps.config.ffmpegPath, args, { signal: job.signal, onProgress, timeoutMs: Math.max(3_600_000, probe.duration * 20_000) })
    const made: MadeRendition[] = []
    for (const rung of rungs) made.push(await storeRendition(deps, rung, dirOf(rung), probe.duration))
    const nowMs = deps.clock.nowMs()
    await deps.db.transaction().execute(async (trx) => {
      // The video may have been deleted meanwhile: its renditions then stay unreferenced and are collected.
      const media = await trx.selectFrom('drive_media').select('gcid').where('gcid', '=', gcid).executeTakeFirst()
      if (!media) return
      const previous = await trx.selectFrom('drive_media_renditions').select('name').where('gcid', '=', gcid).execute()
      if (previous.length > 0) return
      for (const r of made) {
        if (!(await addBlobRef(trx, r.blobGcid, 1, nowMs, r.blobSize))) throw new Error(`rendition blob ${r.blobGcid} was announced but cannot take a reference`)
        await trx
          .insertInto('drive_media_renditions')
          .values({ gcid, name: r.rung.name, width: r.rung.width, height: r.rung.height, bandwidth: r.bandwidth, peak_bandwidth: r.peakBandwidth, blob_gcid: r.blobGcid, blob_size: r.blobSize, playlist: r.playlist })
          .execute()
      }
      await trx.updateTable('drive_media').set({ transcode_state: 'ready', transcode_progress: 100, updated_at: nowMs }).where('gcid', '=', gcid).execute()
    })
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

export async function runMediaJob(deps: MediaDeps, job: JobContext<MediaJobData>): Promise<void> {
  try {
    await probeAndTranscode(deps, job)
  } catch (err) {
    if (!(err instanceof ToolMissing)) throw err
    // Not the video's fault: nothing is remembered, and a member's next look asks again.
    deps.logger.warn({ gcid: job.data.gcid, reason: err.message }, 'videos cannot be probed or transcoded until ffmpeg is installed')
    await deps.db.updateTable('drive_media').set({ transcode_state: 'none', transcode_progress: 0, updated_at: deps.clock.nowMs() }).where('gcid', '=', job.data.gcid).where('transcode_state', 'in', ['queued', 'running']).execute()
  }
}

async function probeAndTranscode(deps: MediaDeps, job: JobContext<MediaJobData>): Promise<void> {
  const { gcid } = job.data
  // The video was deleted before its turn came.
  if (!(await deps.blobs.stat(gcid))) return
  await withLocalFile(deps.blobs, gcid, job.signal, async (path) => {
    const media = await ensureProbe(deps, gcid, path, job.signal)
    const probe = probeOf(media)
    if (!job.data.transcode || !probe || media.transcode_state === 'ready' || media.transcode_state === 'unavailable') return
    try {
      await transcode(deps, job, path, probe)
    } catch (err) {
      const lastTry = job.attempt >= MEDIA_MAX_ATTEMPTS
      // What is about the content is remembered; anything else (a full disk) retries, and is remembered on the last try.
      if (err instanceof MediaUnavailable || (lastTry && !job.signal.aborted && !(err instanceof ToolMissing))) {
        deps.logger.warn({ gcid, err }, 'this video could not be transcoded')
        await deps.db.updateTable('drive_media').set({ transcode_state: 'failed', transcode_progress: 0, updated_at: deps.clock.nowMs() }).where('gcid', '=', gcid).execute()
        if (err instanceof MediaUnavailable) return
      }
      throw err
    }
  })
}

export function registerMediaJobs(runner: JobRunner, deps: MediaDeps): void {
  const options = { maxAttempts: MEDIA_MAX_ATTEMPTS, leaseSeconds: MEDIA_LEASE_SECONDS, backoffMs: 30_000 }
  // Probes are quick and go on while a long transcode holds its own queue.
  runner.register<MediaJobData>(MEDIA_QUEUE, (job) => runMediaJob(deps, job), { ...options, concurrency: PROBE_CONCURRENCY })
  runner.register<MediaJobData>(TRANSCODE_QUEUE, (job) => runMediaJob(deps, job), { ...options, concurrency: TRANSCODE_CONCURRENCY })
}
