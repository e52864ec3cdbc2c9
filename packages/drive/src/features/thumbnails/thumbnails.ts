import type { JobRunner } from '@cumulus/jobs'
import { withLocalFile } from '../../blobs/local-file.js'
import type { ThumbnailsTable } from '../../db/schema.js'
import type { DriveDeps } from '../../deps.js'
import { THUMBNAIL_QUEUE, type ThumbnailCategory, type ThumbnailJobData } from '../../domain/index.js'
import { Slots } from '../../lib/slots.js'
import { ToolMissing } from '../../lib/tools.js'
import { type RenderedThumbnail, ThumbnailUnavailable, renderImage, renderVideo } from './render.js'

/**
 * Thumbnails (issue 13 §2): one per content (GCID), for images (sharp) and videos (a poster frame
 * from ffmpeg). A job makes it after an upload or an offline download lands; a request for one
 * not made yet makes it then. Kept in `drive_thumbnails`, deleted with the blob.
 */

/** Thumbnails this process renders at once (jobs and requests together): CPU-bound. */
const RENDER_CONCURRENCY = 2
const renderSlots = new Slots(RENDER_CONCURRENCY)
/** Renders in progress in this process, by GCID: a second request waits for the first. */
const inFlight = new Map<string, Promise<ThumbnailsTable | null>>()

/** Images up to this size are read whole: sharp decodes a buffer faster than a stream it must gather itself. */
const READ_WHOLE_MAX_BYTES = 64 * 1024 * 1024
/** Images from a store without local files larger than this get no thumbnail (no copy is made). */
const MAX_IMAGE_COPY_BYTES = 1024 ** 3

/** The thumbnail of content `gcid`, rendered now (no cache, no slot). */
export async function renderThumbnail(deps: Pick<DriveDeps, 'blobs' | 'config'>, gcid: string, category: ThumbnailCategory, readWholeMaxBytes = READ_WHOLE_MAX_BYTES): Promise<RenderedThumbnail> {
  const info = await deps.blobs.stat(gcid)
  if (!info) throw new ThumbnailUnavailable('the content is gone')
  if (category === 'VIDEO') return renderVideo(deps.config.ffmpegPath, () => deps.blobs.get(gcid), info.sizeBytes)
  // On local disk libvips reads the file itself, off the main thread, with nothing copied through JS.
  const path = deps.blobs.localPath ? await deps.blobs.localPath(gcid) : null
  if (path) return renderImage(path)
  // A larger one from S3 goes through a temp file: sharp gathers a stream whole in memory
  // before it decodes (its pixel limit applies only after that), so a 4 GB "picture" held 4 GB.
  // Up to a bound: a 50 GB file named .jpg would fill the temp disk for a picture nobody can show.
  if (info.sizeBytes > MAX_IMAGE_COPY_BYTES) throw new ThumbnailUnavailable(`an image of ${info.sizeBytes} bytes is more than a thumbnail is made from`)
  if (info.sizeBytes > readWholeMaxBytes) return withLocalFile(deps.blobs, gcid, undefined, (local) => renderImage(local))
  const stream = await deps.blobs.get(gcid)
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return renderImage(Buffer.concat(chunks, info.sizeBytes))
}

/**
 * The thumbnail of `gcid`: the stored one, or made now and stored. Null when none can be made
 * (remembered as `failed`). Several nodes may render the same one at once; the first row wins.
 */
export async function ensureThumbnail(deps: Pick<DriveDeps, 'db' | 'blobs' | 'config' | 'clock' | 'logger'>, gcid: string, category: ThumbnailCategory): Promise<ThumbnailsTable | null> {
  const stored = await deps.db.selectFrom('drive_thumbnails').selectAll().where('gcid', '=', gcid).executeTakeFirst()
  if (stored) return stored.state === 'ready' ? stored : null
  let pending = inFlight.get(gcid)
  if (!pending) {
    pending = renderSlots.run(async () => {
      let row: ThumbnailsTable
      try {
        const made = await renderThumbnail(deps, gcid, category)
        row = { gcid, state: 'ready', data: made.data, width: made.width, height: made.height, created_at: deps.clock.nowMs() }
      } catch (err) {
        // A missing ffmpeg is not the content's fault: nothing is remembered, so the thumbnail is made once it is installed.
        if (err instanceof ToolMissing) {
          deps.logger.warn({ gcid, reason: err.message }, 'no video thumbnail: ffmpeg is missing')
          return null
        }
        // Only what is about the content is remembered; anything else (a disk error) may pass.
        if (!(err instanceof ThumbnailUnavailable)) throw err
        deps.logger.info({ gcid, reason: err.message }, 'no thumbnail for this content')
        row = { gcid, state: 'failed', data: null, width: 0, height: 0, created_at: deps.clock.nowMs() }
      }
      const inserted = await deps.db.insertInto('drive_thumbnails').values(row).onConflict((oc) => oc.column('gcid').doNothing()).returning('gcid').executeTakeFirst()
      // Another node stored one first: that row is the thumbnail.
      const saved = inserted ? row : await deps.db.selectFrom('drive_thumbnails').selectAll().where('gcid', '=', gcid).executeTakeFirst()
      return saved && saved.state === 'ready' ? saved : null
    }).finally(() => inFlight.delete(gcid))
    inFlight.set(gcid, pending)
  }
  return pending
}

export function registerThumbnailJobs(runner: JobRunner, deps: DriveDeps): void {
  runner.register<ThumbnailJobData>(THUMBNAIL_QUEUE, async (job) => void (await ensureThumbnail(deps, job.data.gcid, job.data.category)), { concurrency: RENDER_CONCURRENCY, maxAttempts: 3, leaseSeconds: 120 })
}
