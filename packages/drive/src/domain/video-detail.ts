import type { DriveFile, DriveMedia, DriveVideoParams, RenditionName, TranscodeStatus } from '@cumulus/protocol'
import type { FilesTable, MediaRenditionsTable } from '../db/schema.js'
import type { Caller, DriveDeps } from '../deps.js'
import { signedMediaUrl } from './content-url.js'
import { type VideoProbe, enqueueMedia, probeOf } from './media.js'
import { planOf } from './plans.js'
import { mayPlay } from './plays.js'

/**
 * A video's detail (`GET /drive/v1/files/{id}`, drive.md "Media and playback"): its `medias` (the
 * Original, then the renditions tallest first) and where its transcode stands. The medias' links
 * start a play when fetched (domain/plays.ts); past the plan's daily count the Original is
 * locked. A member's first look at a video not transcoded yet starts its transcode.
 */

const EMPTY_LINK = { url: '', token: '', expire: '', type: '' }

/** The Original's video as probed, or a rendition's (`rendition`: its size and average rate, H.264 and AAC in HLS). */
function videoOf(probe: VideoProbe | null, size?: { width: number; height: number; bandwidth: number }): DriveMedia['video'] {
  if (!probe) return null
  return {
    width: size?.width ?? probe.width,
    height: size?.height ?? probe.height,
    duration: Math.round(probe.duration),
    bit_rate: size?.bandwidth ?? probe.bitRate,
    frame_rate: probe.frameRate,
    video_codec: size ? 'h264' : probe.videoCodec,
    audio_codec: size ? (probe.hasAudio ? 'aac' : '') : probe.audioCodec,
    video_type: size ? 'hls' : probe.videoType,
    hdr_type: size ? '' : probe.hdrType,
  }
}

function media(fields: Partial<DriveMedia> & Pick<DriveMedia, 'media_id' | 'media_name' | 'link' | 'video' | 'category' | 'is_origin'>): DriveMedia {
  return { need_more_quota: false, vip_types: [], redirect_link: '', icon_link: '', is_default: false, priority: 0, resolution_name: fields.media_name, is_visible: true, ...fields }
}

export async function videoDetail(deps: DriveDeps, caller: Caller, row: FilesTable, view: DriveFile): Promise<DriveFile> {
  if (row.file_category !== 'VIDEO' || row.phase !== 'PHASE_TYPE_COMPLETE' || row.gcid === null || row.trashed !== 0) return view
  const gcid = row.gcid
  const plan = planOf(deps.config, caller.membership, deps.clock.nowMs())
  const [stored, renditions, playable] = await Promise.all([
    deps.db.selectFrom('drive_media').selectAll().where('gcid', '=', gcid).executeTakeFirst(),
    deps.db.selectFrom('drive_media_renditions').selectAll().where('gcid', '=', gcid).execute(),
    mayPlay(deps, caller.userId, row.id, plan.limits.playsPerDay),
  ])
  const probe = probeOf(stored)
  let status: TranscodeStatus = stored?.transcode_state ?? 'none'
  const transcodes = plan.limits.transcodedPlayback && deps.config.transcode.trigger !== 'off'
  // A member's first look starts the transcode (TRANSCODE_ON=play, or content stored by a non-member).
  if (transcodes && status === 'none') {
    await deps.db.transaction().execute(async (trx) => {
      await enqueueMedia(deps.jobs, trx, gcid, 'VIDEO', true)
      await trx.updateTable('drive_media').set({ transcode_state: 'queued', updated_at: deps.clock.nowMs() }).where('gcid', '=', gcid).where('transcode_state', '=', 'none').execute()
    })
    status = 'queued'
  }

  const file = { fileId: row.id, gcid }
  const sorted = [...renditions].sort((a, b) => b.height - a.height)
  const member = plan.limits.transcodedPlayback
  const original = view.links['application/octet-stream']
  const limit = plan.limits.playsPerDay
  const originalLink = original && { ...original, url: signedMediaUrl(deps, file, 'origin', 'original', limit) }
  const medias: DriveMedia[] = [
    media({
      media_id: row.id, media_name: 'Original', category: 'category_origin', is_origin: true, video: videoOf(probe),
      link: playable && originalLink ? originalLink : { ...EMPTY_LINK }, need_more_quota: !playable,
      is_default: !(member && sorted.length > 0),
    }),
  ]
  sorted.forEach((r: MediaRenditionsTable, i) => {
    const name = r.name as RenditionName
    const link = member && playable ? { url: signedMediaUrl(deps, file, name, `${name}/index.m3u8`, limit), token: '', expire: original?.expire ?? '', type: 'application/vnd.apple.mpegurl' } : { ...EMPTY_LINK }
    medias.push(media({ media_id: `${row.id}.${name}`, media_name: name, category: 'category_transcode', is_origin: false, video: videoOf(probe, r), link, need_more_quota: !(member && playable), vip_types: member ? [] : ['vip'], is_default: member && i === 0, priority: i + 1 }))
  })

  const params: DriveVideoParams & Record<string, string> = { ...view.params, transcode_status: status }
  if (status === 'running' || status === 'queued') params.transcode_progress = String(stored?.transcode_progress ?? 0)
  if (member && playable && sorted.length > 0) params.hls_url = signedMediaUrl(deps, file, 'master', 'master.m3u8', limit)
  if (!playable) params.play_limited = 'true'
  return { ...view, medias, params }
}
