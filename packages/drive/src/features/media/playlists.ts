import { RENDITION_FILE } from './ffmpeg.js'

/**
 * HLS playlists (RFC 8216). The variant playlists are ffmpeg's own, stored as it wrote them; the
 * server only swaps the rendition's file name for a signed URL. The master playlist is written
 * here from the renditions' rows.
 */

/**
 * The highest segment rate of a variant playlist, bits per second: each segment's byte range
 * over its duration (`#EXTINF` then `#EXT-X-BYTERANGE`, as ffmpeg writes a single-file VOD).
 */
export function peakBandwidth(playlist: string): number {
  let peak = 0
  let duration = 0
  for (const line of playlist.split('\n')) {
    const inf = /^#EXTINF:([\d.]+)/.exec(line)
    if (inf) duration = Number(inf[1])
    const range = /^#EXT-X-BYTERANGE:(\d+)/.exec(line)
    if (range && duration > 0) peak = Math.max(peak, Math.round((Number(range[1]) * 8) / duration))
  }
  return peak
}

/** A stored variant playlist with its file's name replaced by `fileUrl` (in `#EXT-X-MAP` and on the segment lines). */
export function variantPlaylist(playlist: string, fileUrl: string): string {
  return playlist
    .split('\n')
    .map((line) => (line === RENDITION_FILE ? fileUrl : line.replace(`URI="${RENDITION_FILE}"`, `URI="${fileUrl}"`)))
    .join('\n')
}

export interface MasterEntry {
  width: number
  height: number
  bandwidth: number
  peakBandwidth: number
  url: string
}

/** The master playlist of the renditions a caller may play, tallest first (hls.js starts from its estimate, not the order). */
export function masterPlaylist(entries: readonly MasterEntry[], frameRate: number): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS']
  for (const e of [...entries].sort((a, b) => b.height - a.height)) {
    const attributes = [`BANDWIDTH=${Math.max(1, e.peakBandwidth)}`, `AVERAGE-BANDWIDTH=${Math.max(1, e.bandwidth)}`, `RESOLUTION=${e.width}x${e.height}`]
    if (frameRate > 0) attributes.push(`FRAME-RATE=${frameRate.toFixed(3)}`)
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, e.url)
  }
  return `${lines.join('\n')}\n`
}
