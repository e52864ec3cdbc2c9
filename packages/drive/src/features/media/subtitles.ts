import { AppError, DriveErrors, type DriveSubtitle, type DriveSubtitleList } from '@cumulus/protocol'
import type { FilesTable } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import { findOwned, signedMediaUrl } from '../../domain/index.js'
import { Slots } from '../../lib/slots.js'
import { ToolMissing } from '../../lib/tools.js'
import { MAX_VTT_BYTES, MediaUnavailable, subtitleFileToVtt } from './ffmpeg.js'

/**
 * Subtitles of a video (issue 13 §3): the text tracks inside it (kept as WebVTT when it was
 * probed) and subtitle files beside it, `Movie.srt`, `Movie.en.srt`, `Movie.zh-CN.ass` for
 * `Movie.mkv`, turned into WebVTT by ffmpeg when first asked for and kept by content (GCID).
 */

const SUBTITLE_EXTENSIONS = new Map<string, 'srt' | 'ass' | 'webvtt'>([
  ['.srt', 'srt'],
  ['.ass', 'ass'],
  ['.ssa', 'ass'],
  ['.vtt', 'webvtt'],
])
/** Subtitle files larger than this are not offered (a film's subtitles are well under a megabyte). */
const MAX_SUBTITLE_FILE_BYTES = MAX_VTT_BYTES
/** Subtitle files offered for one video, at most. */
const MAX_SUBTITLE_FILES = 32
/** A converted subtitle file is kept in drive_media_subtitles under its own GCID, on this track. */
export const CONVERTED_FILE_TRACK = -1

const stem = (name: string) => {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(0, dot) : name
}
const extension = (name: string) => {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot).toLowerCase() : ''
}

/** Whether `candidate` is a subtitle file of `video` by its name, and the language tag its name carries ('' when none). */
export function subtitleFileMatch(videoName: string, candidate: string): { language: string } | null {
  if (!SUBTITLE_EXTENSIONS.has(extension(candidate))) return null
  const video = stem(videoName).normalize('NFC').toLowerCase()
  const own = stem(candidate).normalize('NFC').toLowerCase()
  if (own === video) return { language: '' }
  if (!own.startsWith(`${video}.`)) return null
  const tag = stem(candidate).slice(video.length + 1)
  // `Movie.en`, `Movie.zh-CN`, `Movie.chs`: a short tag is a language; anything else is a label only.
  return { language: /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/.test(tag) && tag.length <= 16 ? tag.replace('_', '-') : '' }
}

/** The caller's subtitle files beside `video`, by name order. */
async function subtitleFilesBeside(deps: Pick<DriveDeps, 'db'>, video: FilesTable): Promise<{ file: FilesTable; language: string }[]> {
  const siblings = await deps.db
    .selectFrom('drive_files')
    .selectAll()
    .where('user_id', '=', video.user_id)
    .where('parent_id', '=', video.parent_id)
    .where('kind', '=', 'drive#file')
    .where('phase', '=', 'PHASE_TYPE_COMPLETE')
    .where('trashed', '=', 0)
    .where('size', '<=', MAX_SUBTITLE_FILE_BYTES)
    .where((eb) => eb.or([...SUBTITLE_EXTENSIONS.keys()].map((ext) => eb('file_extension', '=', ext))))
    .orderBy('name')
    .limit(1000)
    .execute()
  const found: { file: FilesTable; language: string }[] = []
  for (const file of siblings) {
    const match = file.gcid ? subtitleFileMatch(video.name, file.name) : null
    if (match && found.length < MAX_SUBTITLE_FILES) found.push({ file, language: match.language })
  }
  return found
}

/** `GET /drive/v1/files/{id}/subtitles`. */
export async function listSubtitles(deps: DriveDeps, caller: Caller, fileId: string): Promise<DriveSubtitleList> {
  const video = await findOwned(deps.db, caller.userId, fileId)
  const subtitles: DriveSubtitle[] = []
  if (video.kind !== 'drive#file' || video.gcid === null || video.file_category !== 'VIDEO') return { kind: 'drive#subtitleList', subtitles }
  const file = { fileId: video.id, gcid: video.gcid }
  const embedded = await deps.db.selectFrom('drive_media_subtitles').selectAll().where('gcid', '=', video.gcid).where('track', '>=', 0).orderBy('track').execute()
  for (const track of embedded) {
    subtitles.push({
      id: `embedded-${track.track}`, label: track.title || track.language || `#${track.track + 1}`, language: track.language, source: 'embedded',
      url: signedMediaUrl(deps, file, `sub:${track.track}`, `subtitles/${track.track}.vtt`), is_default: track.is_default === 1,
    })
  }
  for (const { file: sub, language } of await subtitleFilesBeside(deps, video)) {
    subtitles.push({ id: `file-${sub.id}`, label: sub.name, language, source: 'file', url: signedMediaUrl(deps, file, `subfile:${sub.id}`, `subtitle-files/${encodeURIComponent(sub.id)}.vtt`), is_default: false })
  }
  return { kind: 'drive#subtitleList', subtitles }
}

const noSubtitle = (id: string) => new AppError(DriveErrors.file_not_found, { description: 'no such subtitle track', metadata: { id } })

/** An embedded track's WebVTT. */
export async function embeddedSubtitle(deps: Pick<DriveDeps, 'db'>, gcid: string, track: number): Promise<string> {
  const row = await deps.db.selectFrom('drive_media_subtitles').select('vtt').where('gcid', '=', gcid).where('track', '=', track).executeTakeFirst()
  if (!row || track < 0) throw noSubtitle(String(track))
  return row.vtt
}

/** A subtitle file beside `video` as WebVTT: converted once per content, then read back. */
export async function subtitleFileVtt(deps: Pick<DriveDeps, 'db' | 'blobs' | 'config' | 'logger'>, video: FilesTable, subtitleId: string): Promise<string> {
  const sub = await deps.db.selectFrom('drive_files').selectAll().where('id', '=', subtitleId).executeTakeFirst()
  // Only a file of the same owner, beside the video, that still matches its name.
  if (!sub || sub.user_id !== video.user_id || sub.parent_id !== video.parent_id || sub.trashed !== 0 || sub.gcid === null || sub.size > MAX_SUBTITLE_FILE_BYTES || !subtitleFileMatch(video.name, sub.name)) throw noSubtitle(subtitleId)
  const gcid = sub.gcid
  const cached = await deps.db.selectFrom('drive_media_subtitles').select('vtt').where('gcid', '=', gcid).where('track', '=', CONVERTED_FILE_TRACK).executeTakeFirst()
  if (cached) return cached.vtt
  // One conversion per content at a time (the requests for it meanwhile wait for that one), and
  // a few at a time in all: each is an ffmpeg, and a player asking again and again, or a script,
  // started one per request.
  const format = SUBTITLE_EXTENSIONS.get(extension(sub.name)) ?? 'srt'
  const key = `${gcid}:${format}`
  let converting = conversions.get(key)
  if (!converting) {
    converting = conversionSlots
      .run(async () => {
        const vtt = await subtitleFileToVtt(deps.config.ffmpegPath, await deps.blobs.get(gcid), format)
        await deps.db
          .insertInto('drive_media_subtitles')
          .values({ gcid, track: CONVERTED_FILE_TRACK, language: '', title: '', is_default: 0, vtt })
          .onConflict((oc) => oc.columns(['gcid', 'track']).doNothing())
          .execute()
        return vtt
      })
      .finally(() => conversions.delete(key))
    conversions.set(key, converting)
  }
  try {
    return await converting
  } catch (err) {
    // Each caller's own error: the conversion may be another account's request for the same content.
    if (!(err instanceof MediaUnavailable || err instanceof ToolMissing)) throw err
    deps.logger.info({ fileId: sub.id, reason: err.message }, 'a subtitle file could not be read')
    throw new AppError(DriveErrors.file_not_found, { description: 'this subtitle file cannot be read', metadata: { id: subtitleId }, cause: err })
  }
}

/** Subtitle files being converted in this process, by content and format. */
const conversions = new Map<string, Promise<string>>()
/** Conversions this process runs at once. */
const conversionSlots = new Slots(2)
