import type { DriveDeps } from '../deps.js'
import { signLink } from './signed-link.js'

/** Links expire on these boundaries, so repeated reads of a file within one give the same URL (players and download managers cache by URL). */
const EXPIRY_STEP_SECONDS = 600

/**
 * A signed, expiring download URL for a file's content: usable without the bearer header (a
 * `<video>` element, a download manager). The name in the path is only for tools that name the
 * download after the URL; the server ignores it.
 */
export function signedContentUrl(deps: Pick<DriveDeps, 'config' | 'clock' | 'linkSecret'>, file: { fileId: string; gcid: string; name: string }): { url: string; expiresAtMs: number } {
  const nowSeconds = Math.floor(deps.clock.nowMs() / 1000)
  const expiresAtSeconds = Math.ceil((nowSeconds + deps.config.linkTtlSeconds) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS
  const { e, s } = signLink(deps.linkSecret, { fileId: file.fileId, gcid: file.gcid, expiresAtSeconds })
  const url = `${deps.config.publicUrl}/drive/v1/content/${encodeURIComponent(file.fileId)}/${encodeURIComponent(file.name)}?e=${e}&s=${s}`
  return { url, expiresAtMs: expiresAtSeconds * 1000 }
}

/** A signed, expiring URL for a file's thumbnail (its `thumbnail_link`); it opens the thumbnail only. */
export function signedThumbnailUrl(deps: Pick<DriveDeps, 'config' | 'clock' | 'linkSecret'>, file: { fileId: string; gcid: string }): string {
  const nowSeconds = Math.floor(deps.clock.nowMs() / 1000)
  const expiresAtSeconds = Math.ceil((nowSeconds + deps.config.linkTtlSeconds) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS
  const { e, s } = signLink(deps.linkSecret, { fileId: file.fileId, gcid: file.gcid, expiresAtSeconds, purpose: 'thumbnail' })
  return `${deps.config.publicUrl}/drive/v1/thumbnails/${encodeURIComponent(file.fileId)}?e=${e}&s=${s}`
}

/**
 * A signed, expiring URL for one part of a video's playback under `/drive/v1/media/<fileId>/`
 * (a playlist, a rendition's file, a subtitle track), usable by a player without the bearer.
 * `part` is what the signature binds besides the file and its content, so a link to one part
 * never opens another.
 */
export function signedMediaUrl(deps: Pick<DriveDeps, 'config' | 'clock' | 'linkSecret'>, file: { fileId: string; gcid: string }, part: string, path: string, playLimit?: number): string {
  const nowSeconds = Math.floor(deps.clock.nowMs() / 1000)
  const expiresAtSeconds = Math.ceil((nowSeconds + deps.config.linkTtlSeconds) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS
  // A link that starts a play carries the plan's daily count (`l`), signed with it: the server
  // serving it knows the link, not the caller's membership.
  const signedPart = playLimit === undefined ? part : `${part}:${playLimit}`
  const { e, s } = signLink(deps.linkSecret, { fileId: file.fileId, gcid: file.gcid, expiresAtSeconds, purpose: `media:${signedPart}` })
  return `${deps.config.publicUrl}/drive/v1/media/${encodeURIComponent(file.fileId)}/${path}?e=${e}&s=${s}${playLimit === undefined ? '' : `&l=${playLimit}`}`
}

/**
 * A file's download URL as a share gives it: signed for the share as well as the file, and served
 * by the share's content route, which checks that the share still stands on every request, so
 * cancelling a share (or its expiry) kills the links it gave out at once.
 */
export function signedShareContentUrl(deps: Pick<DriveDeps, 'config' | 'clock' | 'linkSecret'>, file: { shareId: string; fileId: string; gcid: string; name: string }): { url: string; expiresAtMs: number } {
  const nowSeconds = Math.floor(deps.clock.nowMs() / 1000)
  const expiresAtSeconds = Math.ceil((nowSeconds + deps.config.linkTtlSeconds) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS
  const { e, s } = signLink(deps.linkSecret, { fileId: file.fileId, gcid: file.gcid, expiresAtSeconds, purpose: `share:${file.shareId}` })
  const url = `${deps.config.publicUrl}/drive/v1/share/content/${encodeURIComponent(file.shareId)}/${encodeURIComponent(file.fileId)}/${encodeURIComponent(file.name)}?e=${e}&s=${s}`
  return { url, expiresAtMs: expiresAtSeconds * 1000 }
}

/** A file's thumbnail as a share gives it: signed for the share, and served only while the share stands and holds the file. */
export function signedShareThumbnailUrl(deps: Pick<DriveDeps, 'config' | 'clock' | 'linkSecret'>, file: { shareId: string; fileId: string; gcid: string }): string {
  const nowSeconds = Math.floor(deps.clock.nowMs() / 1000)
  const expiresAtSeconds = Math.ceil((nowSeconds + deps.config.linkTtlSeconds) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS
  const { e, s } = signLink(deps.linkSecret, { fileId: file.fileId, gcid: file.gcid, expiresAtSeconds, purpose: `share-thumbnail:${file.shareId}` })
  return `${deps.config.publicUrl}/drive/v1/share/thumbnails/${encodeURIComponent(file.shareId)}/${encodeURIComponent(file.fileId)}?e=${e}&s=${s}`
}
