import type Hls from 'hls.js'
import type { HlsSupport } from './video-sources'

/** The codecs of our renditions (H.264 and AAC), as hls.js checks Media Source Extensions for them. */
const RENDITION_MIME = 'video/mp4; codecs="avc1.42E01E,mp4a.40.2"'

type MediaSourceLike = { isTypeSupported(type: string): boolean }

/**
 * How this browser plays HLS: hls.js when it has Media Source Extensions for H.264 (what
 * `Hls.isSupported()` checks, without loading hls.js to ask), else natively where the video
 * element plays playlists itself (Safari on iOS), else not at all.
 */
export function detectHlsSupport(video: Pick<HTMLVideoElement, 'canPlayType'>, scope: Record<string, unknown> = globalThis as unknown as Record<string, unknown>): HlsSupport {
  const mediaSource = (scope['MediaSource'] ?? scope['ManagedMediaSource'] ?? scope['WebKitMediaSource']) as MediaSourceLike | undefined
  if (mediaSource && typeof mediaSource.isTypeSupported === 'function' && mediaSource.isTypeSupported(RENDITION_MIME)) return 'mse'
  return video.canPlayType('application/vnd.apple.mpegurl') === '' ? 'none' : 'native'
}

let hls: Promise<typeof Hls> | undefined

/** hls.js (its light build, 370 KB), fetched the first time an HLS source plays; a failed fetch is tried again next time. */
export function loadHls(): Promise<typeof Hls> {
  hls ??= import('hls.js/light').then(
    (module) => module.default,
    (error: unknown) => {
      hls = undefined
      throw error
    },
  )
  return hls
}

/** The level of `levels` that is `height` pixels tall; -1 (hls.js's automatic choice) for -1 or a height it does not have. */
export function levelIndexOf(levels: readonly { height: number }[], height: number): number {
  if (height < 0) return -1
  return levels.findIndex((level) => level.height === height)
}
