import { type DriveFile, type DriveMedia, RENDITION_NAMES, type RenditionName, type TranscodeStatus } from '@cumulus/protocol'

/** What the quality menu chooses: hls.js's own choice, one rendition, or the uploaded file as it is. */
export type QualityChoice = 'auto' | RenditionName | 'original'

export interface Rendition {
  name: RenditionName
  /** The rung's height in pixels (1080 for 1080P). */
  height: number
  /** Its signed HLS variant playlist; '' when locked. */
  url: string
  /** A members-only rendition the caller may not play (`need_more_quota`). */
  locked: boolean
}

/** A video's playable forms, read from its detail (drive.md "Media and playback"). */
export interface VideoSources {
  /** The Original's signed direct link; '' when today's plays are used up. */
  originalUrl: string
  /** The Original exists but may not be played now (`need_more_quota`). */
  originalLocked: boolean
  /** The signed master playlist of every rendition the caller may play; '' when none. */
  hlsUrl: string
  /** Tallest first. */
  renditions: Rendition[]
  transcodeStatus: TranscodeStatus
  /** 0..100, meaningful while the transcode runs. */
  transcodePercent: number
  /** The free plan's daily plays are used up (`params.play_limited`). */
  playLimited: boolean
  /** The server marks a rendition the default (`is_default`: a member's HD versions are ready), not the Original. */
  renditionIsDefault: boolean
}

/** How this browser plays HLS: hls.js over Media Source Extensions, natively (Safari), or not at all. */
export type HlsSupport = 'mse' | 'native' | 'none'

const TRANSCODE_STATUSES: readonly TranscodeStatus[] = ['none', 'queued', 'running', 'ready', 'failed', 'unavailable']

function isRendition(name: string): name is RenditionName {
  return (RENDITION_NAMES as readonly string[]).includes(name)
}

function isLocked(media: DriveMedia): boolean {
  return media.need_more_quota || media.link.url === ''
}

/**
 * The sources of a video's detail (`GET /drive/v1/files/{id}`): the Original first, then the
 * transcoded renditions. A detail without medias (a server that predates them) plays its
 * `web_content_link` as the Original.
 */
export function videoSourcesOf(file: DriveFile): VideoSources {
  const medias = file.medias ?? []
  const origin = medias.find((media) => media.is_origin || media.category === 'category_origin')
  const renditions: Rendition[] = []
  for (const media of medias) {
    if (media === origin) continue
    const name = media.resolution_name || media.media_name
    if (!isRendition(name) || renditions.some((r) => r.name === name)) continue
    const locked = isLocked(media)
    renditions.push({ name, height: Number.parseInt(name, 10), url: locked ? '' : media.link.url, locked })
  }
  renditions.sort((a, b) => b.height - a.height)
  const params = file.params ?? {}
  const status = TRANSCODE_STATUSES.find((s) => s === params['transcode_status']) ?? 'none'
  const percent = Number.parseInt(params['transcode_progress'] ?? '', 10)
  const originalLocked = origin ? isLocked(origin) : false
  return {
    originalUrl: origin ? (originalLocked ? '' : origin.link.url) : file.web_content_link,
    originalLocked,
    hlsUrl: params['hls_url'] ?? '',
    renditions,
    transcodeStatus: status,
    transcodePercent: Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0,
    playLimited: params['play_limited'] === 'true',
    renditionIsDefault: medias.some((media) => media !== origin && media.is_default && !isLocked(media)),
  }
}

/** Whether the transcode is still on its way (the detail is worth reading again). */
export function isTranscodePending(sources: VideoSources): boolean {
  return sources.transcodeStatus === 'queued' || sources.transcodeStatus === 'running'
}

export interface QualityOption {
  value: QualityChoice
  /** Locked: shown, but choosing it leads to the membership page. */
  locked: boolean
}

/**
 * The quality menu, in its order: Auto (with the master playlist and hls.js), each rendition
 * (tallest first), then the Original. A rendition plays through the master playlist (hls.js picks
 * its level) or its own variant playlist; without any HLS support only the Original is offered.
 * Locked renditions stay listed, for what membership would give.
 */
export function qualityOptions(sources: VideoSources, hls: HlsSupport): QualityOption[] {
  const options: QualityOption[] = []
  const canHls = hls !== 'none'
  if (canHls && sources.hlsUrl !== '' && sources.renditions.some((r) => !r.locked)) options.push({ value: 'auto', locked: false })
  for (const rendition of sources.renditions) {
    if (rendition.locked) options.push({ value: rendition.name, locked: true })
    else if (canHls && (rendition.url !== '' || sources.hlsUrl !== '')) options.push({ value: rendition.name, locked: false })
  }
  if (sources.originalUrl !== '' || sources.originalLocked) options.push({ value: 'original', locked: sources.originalUrl === '' })
  return options
}

/**
 * The quality a player starts with: Auto when the server makes a rendition the default (a
 * member's HD versions: adaptive streaming copes with the connection), else the Original when it
 * can play here (no waiting for a transcode), else Auto, else the tallest rendition it may play;
 * null when nothing may be played (the play limit, a members-only video).
 */
export function initialQuality(options: readonly QualityOption[], { originalPlaysHere, renditionIsDefault = false }: { originalPlaysHere: boolean; renditionIsDefault?: boolean }): QualityChoice | null {
  const playable = options.filter((option) => !option.locked)
  const original = playable.find((option) => option.value === 'original')
  const auto = playable.find((option) => option.value === 'auto')
  if (auto && renditionIsDefault) return 'auto'
  if (original && originalPlaysHere) return 'original'
  return playable.find((option) => option.value === 'auto')?.value ?? playable.find((option) => option.value !== 'original')?.value ?? original?.value ?? null
}

/** What one choice loads: a direct file, or an HLS playlist (with the level hls.js should hold: -1 for Auto). */
export type PlayerSource = { kind: 'file'; url: string } | { kind: 'hls'; url: string; height: number }

/**
 * The source of a choice. With hls.js, every rendition plays through the master playlist (one
 * load; switching only changes its level); natively, Auto is the master and a rendition its own
 * variant playlist. `key` stays the same while the same load can serve the choice, so a choice
 * that only changes hls.js's level, or a detail read again with fresh signatures, reloads nothing.
 */
export function sourceFor(choice: QualityChoice, sources: VideoSources, hls: HlsSupport): { key: string; source: PlayerSource } | null {
  if (choice === 'original') return sources.originalUrl === '' ? null : { key: 'original', source: { kind: 'file', url: sources.originalUrl } }
  if (hls === 'none') return null
  const height = choice === 'auto' ? -1 : Number.parseInt(choice, 10)
  if (sources.hlsUrl !== '' && (hls === 'mse' || choice === 'auto')) return { key: 'hls:master', source: { kind: 'hls', url: sources.hlsUrl, height } }
  if (choice === 'auto') return null
  const rendition = sources.renditions.find((r) => r.name === choice)
  if (!rendition || rendition.url === '') return null
  return { key: `hls:${choice}`, source: { kind: 'hls', url: rendition.url, height: -1 } }
}
