import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { DriveErrors } from '@cumulus/protocol'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectGarbageBlobs } from '../src/features/blobs/collect-garbage-blobs.js'
import { renderThumbnail } from '../src/features/thumbnails/thumbnails.js'
import type { DriveDeps } from '../src/deps.js'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'
import { pathOf, uploadFile } from './upload-kit.js'

// Real sharp and a real ffmpeg (Debian's, which .ci/run installs), through the real server:
// the job made after the upload, and the signed thumbnail link.

/** A short video made by ffmpeg's test source, as MP4 with its index at the end (needs seeking) or as WebM (streams). */
function makeVideo(container: 'mp4' | 'webm'): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-video-'))
  try {
    const path = join(dir, `clip.${container}`)
    const codec = container === 'mp4' ? ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'] : ['-c:v', 'libvpx', '-b:v', '200k']
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=10:duration=2', ...codec, path])
    return readFileSync(path)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('thumbnails', () => {
  let t: DriveTestApp
  let token: string
  beforeAll(async () => {
    t = await startDriveTestApp()
    token = await t.signUp()
  })
  afterAll(async () => {
    await t?.close()
  })

  /** The stored thumbnail row of a content, once the job has run. */
  async function storedThumbnail(gcid: string, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const row = await t.server.drive.db.selectFrom('drive_thumbnails').selectAll().where('gcid', '=', gcid).executeTakeFirst()
      if (row) return row
      if (Date.now() > deadline) throw new Error(`no thumbnail row for ${gcid}`)
      await sleep(100)
    }
  }

  it('makes a 320 px WebP of an uploaded photo in a job, upright, and serves it through the signed link with a revalidating ETag', async () => {
    // 1200x800, stored rotated: EXIF orientation 6 means "turn 90 degrees clockwise to show".
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3366cc' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer()
    const file = await uploadFile(t, token, 'holiday.jpg', photo)
    expect(file.thumbnail_link).toMatch(/\/drive\/v1\/thumbnails\//)
    const row = await storedThumbnail(file.hash)
    expect(row).toMatchObject({ state: 'ready', width: 213, height: 320 })

    const reply = await t.call('GET', pathOf(file.thumbnail_link))
    expect(reply.status).toBe(200)
    expect(reply.headers['content-type']).toBe('image/webp')
    expect(await sharp(reply.raw).metadata()).toMatchObject({ format: 'webp', width: 213, height: 320 })
    const etag = String(reply.headers.etag)
    expect((await t.call('GET', pathOf(file.thumbnail_link), { headers: { 'if-none-match': etag } })).status).toBe(304)
  })

  it('renders an image from a store without local files, a large one through a temp copy (never a stream gathered in memory by sharp)', async () => {
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#cc6633' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer()
    let reads = 0
    // As S3 is: no local path, the content only as a stream.
    const blobs = {
      stat: async (gcid: string) => ({ gcid, sizeBytes: photo.length }),
      get: async () => {
        reads++
        return Readable.from([photo.subarray(0, 1000), photo.subarray(1000)])
      },
    } as unknown as DriveDeps['blobs']
    const deps = { blobs, config: t.server.drive.config }
    for (const readWholeMaxBytes of [photo.length, photo.length - 1]) {
      const made = await renderThumbnail(deps, 'G', 'IMAGE', readWholeMaxBytes)
      expect([made.width, made.height]).toEqual([213, 320])
      expect(await sharp(made.data).metadata()).toMatchObject({ format: 'webp', width: 213, height: 320 })
    }
    expect(reads).toBe(2)
    // Past 1 GiB, no copy is made: no thumbnail.
    const huge = { ...deps, blobs: { ...blobs, stat: async (gcid: string) => ({ gcid, sizeBytes: 2 * 1024 ** 3 }), get: blobs.get } as unknown as DriveDeps['blobs'] }
    await expect(renderThumbnail(huge, 'G', 'IMAGE')).rejects.toThrow(/more than a thumbnail is made from/)
    expect(reads).toBe(2)
  })

  it('keeps the thumbnail link and the content link apart: neither opens the other', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 4, background: '#ff000080' } }).png().toBuffer()
    const file = await uploadFile(t, token, 'dot.png', png)
    const thumbnail = new URL(file.thumbnail_link)
    const content = new URL(file.web_content_link)
    const asContent = `/drive/v1/content/${file.id}${thumbnail.search}`
    expect((await t.call('GET', asContent)).body.error).toBe(DriveErrors.file_link_invalid.reason)
    expect((await t.call('GET', `/drive/v1/thumbnails/${file.id}${content.search}`)).body.error).toBe(DriveErrors.file_link_invalid.reason)
    // A small image is not enlarged.
    expect(await sharp((await t.call('GET', pathOf(file.thumbnail_link))).raw).metadata()).toMatchObject({ width: 40, height: 30 })
  })

  it('makes poster frames of videos, from a stream (WebM) and from a file that needs seeking (MP4 with its index at the end)', async () => {
    for (const container of ['webm', 'mp4'] as const) {
      const file = await uploadFile(t, token, `clip.${container}`, makeVideo(container))
      expect(file.file_category).toBe('VIDEO')
      const reply = await t.call('GET', pathOf(file.thumbnail_link))
      expect(reply.status, container).toBe(200)
      expect(await sharp(reply.raw).metadata(), container).toMatchObject({ format: 'webp', width: 320, height: 180 })
    }
  })

  it('gives no thumbnail link to other files, and answers file_not_found, once, for an image it cannot read', async () => {
    const text = await uploadFile(t, token, 'notes.txt', Buffer.from('hello'))
    expect(text.thumbnail_link).toBe('')
    const broken = await uploadFile(t, token, 'broken.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(500, 7)]))
    expect(broken.thumbnail_link).not.toBe('')
    const reply = await t.call('GET', pathOf(broken.thumbnail_link))
    expect([reply.status, reply.body.error]).toEqual([404, DriveErrors.file_not_found.reason])
    expect(await storedThumbnail(broken.hash)).toMatchObject({ state: 'failed', data: null })
  })

  it('deletes a thumbnail with its content', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#00ff00' } }).png().toBuffer()
    const file = await uploadFile(t, token, 'gone.png', png)
    await storedThumbnail(file.hash)
    expect((await t.call('POST', '/drive/v1/files:batchDelete', { token, body: { ids: [file.id] } })).status).toBe(200)
    expect(await collectGarbageBlobs(t.server.drive, -1)).toBeGreaterThanOrEqual(1)
    expect(await t.server.drive.db.selectFrom('drive_thumbnails').select('gcid').where('gcid', '=', file.hash).executeTakeFirst()).toBeUndefined()
  })
})
