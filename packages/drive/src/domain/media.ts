import type { JobRunner } from '@cumulus/jobs'
import type { Kysely, Transaction } from 'kysely'
import type { DriveConfig } from '../config.js'
import type { DriveDatabase, MediaTable } from '../db/schema.js'
import { countByGcid, releaseBlobRefsInBulk } from './blob-refs.js'
import type { PlanLimits } from './plans.js'

/**
 * The job queues of videos (features/media): MEDIA_QUEUE probes one (length, size, codecs,
 * subtitles), TRANSCODE_QUEUE probes it if need be and makes its HLS renditions. One job per
 * content (GCID) and queue at a time.
 */
export const MEDIA_QUEUE = 'drive.media'
export const TRANSCODE_QUEUE = 'drive.transcode'
export type MediaJobData = {
  gcid: string
  transcode: boolean
}

/** Whether content an account on `limits` stores now is transcoded as it lands (TRANSCODE_ON=upload, a member's plan). */
export function transcodesOnArrival(config: Pick<DriveConfig, 'transcode'>, limits: PlanLimits): boolean {
  return config.transcode.trigger === 'upload' && limits.transcodedPlayback
}

/** Enqueues the media job of a video in the caller's transaction; other categories have none. */
export async function enqueueMedia(jobs: JobRunner, trx: Kysely<DriveDatabase> | Transaction<DriveDatabase>, gcid: string, category: string, transcode: boolean): Promise<void> {
  if (category !== 'VIDEO') return
  await jobs.enqueue<MediaJobData>(transcode ? TRANSCODE_QUEUE : MEDIA_QUEUE, { gcid, transcode }, { uniqueKey: `media:${gcid}`, db: trx as Kysely<any> })
}

/**
 * Forgets what was made from content `gcid` once its blob is deleted: the probe, the subtitles
 * (also a subtitle file's converted WebVTT, kept under its own GCID), and the renditions, whose
 * blobs lose their reference and are collected in turn.
 */
export async function forgetMedia(db: Kysely<DriveDatabase>, gcid: string, nowMs: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const renditions = await trx.deleteFrom('drive_media_renditions').where('gcid', '=', gcid).returning('blob_gcid').execute()
    if (renditions.length > 0) await releaseBlobRefsInBulk(trx, countByGcid(renditions.map((r) => ({ gcid: r.blob_gcid }))), nowMs)
    await trx.deleteFrom('drive_media_subtitles').where('gcid', '=', gcid).execute()
    await trx.deleteFrom('drive_media').where('gcid', '=', gcid).execute()
  })
}

export interface SubtitleTrack {
  /** Order among the video's subtitle streams (ffmpeg's `0:s:N`). */
  track: number
  codec: string
  language: string
  title: string
  isDefault: boolean
}

/** What a video holds, as the wire's `medias[].video` needs it, and its text subtitle tracks. */
export interface VideoProbe {
  width: number
  height: number
  /** Seconds. */
  duration: number
  /** Bits per second over the whole file. */
  bitRate: number
  frameRate: number
  videoCodec: string
  audioCodec: string
  /** The container, as ffprobe names it ('mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm'). */
  videoType: string
  /** 'HDR10', 'HLG' or '' (SDR). */
  hdrType: string
  hasAudio: boolean
  /** Text tracks only: image-based ones (PGS, VobSub) cannot become WebVTT. */
  subtitles: SubtitleTrack[]
}

/** The stored probe of a video, or null when it was not probed or could not be read. */
export function probeOf(row: Pick<MediaTable, 'probe'> | undefined): VideoProbe | null {
  if (!row?.probe) return null
  try {
    return JSON.parse(row.probe) as VideoProbe
  } catch {
    return null
  }
}
