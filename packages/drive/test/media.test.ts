import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { randomBytes } from 'node:crypto'
import { DriveErrors, GenericErrors } from '@cumulus/protocol'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectGarbageBlobs } from '../src/features/blobs/collect-garbage-blobs.js'
import { runMediaJob } from '../src/features/media/media-job.js'
import { subtitleFileVtt } from '../src/features/media/subtitles.js'
import { runDriveHousekeeping } from '../src/housekeeping.js'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'
import { S3_TEST_CREDENTIALS, type S3TestServer, startS3TestServer } from './s3-test-server.js'
import { pathOf, uploadFile } from './upload-kit.js'

// Video playback through the real server, with Debian's ffmpeg and ffprobe (which .ci/run
// installs): the probe and transcode jobs, the signed HLS playlists and rendition files, the
// daily play count, subtitles and the playback position.

const SUBTITLES = '1\n00:00:00,000 --> 00:00:01,500\nHello from inside\n\n2\n00:00:01,500 --> 00:00:03,000\nSecond line\n'

/** A 3 s 1280x720 clip with a tone and, in Matroska, a SubRip track. Made once; small (ultrafast). */
function makeClip(container: 'mkv' | 'mp4', size = '1280x720'): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-clip-'))
  try {
    const srt = join(dir, 'in.srt')
    writeFileSync(srt, SUBTITLES)
    const out = join(dir, `clip.${container}`)
    const subtitleInput = container === 'mkv' ? ['-i', srt, '-map', '0:v', '-map', '1:a', '-map', '2:s', '-c:s', 'srt', '-metadata:s:s:0', 'language=eng', '-metadata:s:s:0', 'title=English'] : []
    execFileSync('ffmpeg', [
      '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=15:duration=3`, '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3',
      ...subtitleInput, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', out,
    ])
    return readFileSync(out)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('video playback', () => {
  let t: DriveTestApp
  let member: string
  let free: string
  let clip: Buffer
  let small: Buffer
  beforeAll(async () => {
    // Free accounts may play two videos a day here, so the limit is quick to reach.
    t = await startDriveTestApp({ TRANSCODE_PRESET: 'ultrafast', PLANS: JSON.stringify({ free: { plays_per_day: 2 } }) })
    member = await t.signUp()
    await t.makeVip(member)
    free = await t.signUp()
    clip = makeClip('mkv')
    small = makeClip('mp4', '320x240')
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  const detail = async (token: string, id: string) => {
    const reply = await t.call('GET', `/drive/v1/files/${id}`, { token })
    expect(reply.status).toBe(200)
    return reply.body
  }

  async function until<T>(what: string, read: () => Promise<T | undefined | null | false>, timeoutMs = 45_000): Promise<T> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const value = await read()
      if (value) return value
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
      await sleep(150)
    }
  }

  let video: any
  /** Every file of `clip`'s content, to delete them all at the end. */
  const clipFiles: { token: string; id: string }[] = []
  it("transcodes a member's upload into the renditions not above the source, and serves them as signed HLS", async () => {
    video = await uploadFile(t, member, 'Holiday.mkv', clip)
    clipFiles.push({ token: member, id: video.id })
    expect(video.file_category).toBe('VIDEO')
    const ready = await until('the renditions', async () => {
      const body = await detail(member, video.id)
      return body.params.transcode_status === 'ready' && body
    }, 90_000)
    expect(ready.medias.map((m: any) => m.media_name)).toEqual(['Original', '720P', '480P'])
    const [original, hd, sd] = ready.medias
    expect(original).toMatchObject({ is_origin: true, category: 'category_origin', need_more_quota: false, video: { width: 1280, height: 720, duration: 3, video_codec: 'h264', audio_codec: 'aac' } })
    // The Original plays through a media link that counts the play (l: the plan's daily count, none for members).
    expect(original.link.url).toMatch(/\/drive\/v1\/media\/[^/]+\/original\?e=\d+&s=[^&]+&l=-1$/)
    expect(hd).toMatchObject({ is_origin: false, is_default: true, category: 'category_transcode', need_more_quota: false, video: { width: 1280, height: 720, video_codec: 'h264' } })
    expect(sd).toMatchObject({ need_more_quota: false, video: { width: 854, height: 480 } })
    expect(hd.link.url).toMatch(/\/drive\/v1\/media\/[^/]+\/720P\/index\.m3u8\?e=\d+&s=/)

    const master = await t.call('GET', pathOf(ready.params.hls_url))
    expect(master.status).toBe(200)
    expect(master.headers['content-type']).toMatch(/application\/vnd\.apple\.mpegurl/)
    const variants = String(master.body).split('\n').filter((line) => line.startsWith('http'))
    expect(String(master.body)).toMatch(/RESOLUTION=1280x720/)
    expect(String(master.body)).toMatch(/RESOLUTION=854x480/)
    expect(variants).toHaveLength(2)

    const playlist = String((await t.call('GET', pathOf(variants[0]!))).body)
    expect(playlist).toMatch(/#EXT-X-PLAYLIST-TYPE:VOD/)
    const fileUrl = /#EXT-X-MAP:URI="([^"]+)",BYTERANGE="(\d+)@0"/.exec(playlist)
    expect(fileUrl).not.toBeNull()
    const init = await t.call('GET', pathOf(fileUrl![1]!), { headers: { range: `bytes=0-${Number(fileUrl![2]) - 1}` } })
    expect(init.status).toBe(206)
    expect(init.headers['content-type']).toBe('video/mp4')
    expect(init.raw.subarray(4, 8).toString('latin1')).toBe('ftyp')
    // Every segment line names the same signed file.
    expect(playlist.split('\n').filter((line) => line.startsWith('http')).every((line) => line === fileUrl![1])).toBe(true)
  }, 120_000)

  it('keeps each signed part to itself: a playlist link opens no other rendition, a tampered one nothing', async () => {
    const body = await detail(member, video.id)
    const hd = new URL(body.medias[1].link.url)
    const asOther = `/drive/v1/media/${video.id}/480P/index.m3u8${hd.search}`
    expect((await t.call('GET', asOther)).body.error).toBe(DriveErrors.file_link_invalid.reason)
    expect((await t.call('GET', `/drive/v1/content/${video.id}${hd.search}`)).body.error).toBe(DriveErrors.file_link_invalid.reason)
    // The first signature character always changes (a fixed replacement is a no-op one time in 64).
    const tampered = hd.search.replace(/s=(.)/, (_, first: string) => `s=${first === 'A' ? 'B' : 'A'}`)
    expect((await t.call('GET', `${hd.pathname}${tampered}`)).body.error).toBe(DriveErrors.file_link_invalid.reason)
    expect((await t.call('GET', `/drive/v1/media/${video.id}/2160P/index.m3u8${hd.search}`)).status).toBe(400)
    // A link dies with its file.
    const copy = await uploadFile(t, member, 'Trashed.mkv', clip)
    clipFiles.push({ token: member, id: copy.id })
    const copyDetail = await until('the copy is ready', async () => {
      const d = await detail(member, copy.id)
      return d.params.hls_url && d
    })
    expect((await t.call('POST', '/drive/v1/files:batchTrash', { token: member, body: { ids: [copy.id] } })).status).toBe(200)
    expect((await t.call('GET', pathOf(copyDetail.params.hls_url))).body.error).toBe(DriveErrors.file_not_found.reason)
  })

  it('shows a non-member the renditions locked, and lets them play the original', async () => {
    const theirs = await uploadFile(t, free, 'Same.mkv', clip)
    clipFiles.push({ token: free, id: theirs.id })
    const body = await detail(free, theirs.id)
    expect(body.medias.map((m: any) => [m.media_name, m.need_more_quota, m.link.url === ''])).toEqual([
      ['Original', false, false],
      ['720P', true, true],
      ['480P', true, true],
    ])
    expect(body.medias[1].vip_types).toEqual(['vip'])
    expect(body.params.hls_url).toBeUndefined()
    expect(body.params.transcode_status).toBe('ready')
  })

  it('counts a play when playback starts, once per video a day, and holds the free plan to its count under parallel first plays', async () => {
    const quota = async (token: string) => (await t.call('GET', '/drive/v1/about', { token })).body.quota
    expect(await quota(free)).toMatchObject({ play_times_limit: '2', play_times_usage: '0' })
    const more: any[] = []
    for (let i = 0; i < 5; i++) more.push(await uploadFile(t, free, `short-${i}.mp4`, small))
    const details = await Promise.all(more.map((f) => detail(free, f.id)))
    // Looking is not playing, nor is downloading.
    expect(details.every((d) => !d.medias[0].need_more_quota)).toBe(true)
    expect((await t.call('GET', pathOf(details[4].web_content_link), { headers: { range: 'bytes=0-0' } })).status).toBe(206)
    expect((await quota(free)).play_times_usage).toBe('0')
    // The first play, then seeking in it (more ranges of the same video) counts once.
    const play = (d: any) => t.call('GET', pathOf(d.medias[0].link.url), { headers: { range: 'bytes=0-99' } })
    expect((await play(details[0])).status).toBe(206)
    expect((await play(details[0])).status).toBe(206)
    expect((await quota(free)).play_times_usage).toBe('1')
    // Twelve parallel first plays of three other videos: exactly one more may start.
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => play(details[1 + (i % 3)]).then((reply) => ({ id: details[1 + (i % 3)].id, reply }))))
    const started = new Set(replies.filter(({ reply }) => reply.status === 206).map(({ id }) => id))
    expect(started.size).toBe(1)
    for (const { reply } of replies.filter(({ reply }) => reply.status !== 206)) {
      expect(reply.status).toBe(403)
      expect(reply.body.error).toBe(DriveErrors.play_limit_reached.reason)
    }
    expect(await quota(free)).toMatchObject({ play_times_limit: '2', play_times_usage: '2' })
    // The detail now shows the others locked; the played ones still play; downloads still work.
    const locked = await detail(free, more[4].id)
    expect(locked.medias[0]).toMatchObject({ need_more_quota: true, link: { url: '' } })
    expect(locked.params.play_limited).toBe('true')
    expect((await t.call('GET', pathOf(locked.web_content_link), { headers: { range: 'bytes=0-0' } })).status).toBe(206)
    expect((await detail(free, more[0].id)).medias[0].need_more_quota).toBe(false)
    expect((await play(details[0])).status).toBe(206)
    // A tampered count in the link is not a bigger count.
    const link = new URL(details[4].medias[0].link.url)
    link.searchParams.set('l', '-1')
    expect((await t.call('GET', link.pathname + link.search)).body.error).toBe(DriveErrors.file_link_invalid.reason)
    // A member has no count, and the plays show.
    const before = Number((await quota(member)).play_times_usage)
    const hd = (await detail(member, video.id)).params.hls_url
    expect((await t.call('GET', pathOf(hd))).status).toBe(200)
    expect(await quota(member)).toMatchObject({ play_times_limit: '-1', play_times_usage: String(Math.max(before, 1)) })
  })

  it('offers the subtitle tracks inside a video and the subtitle files beside it, as WebVTT', async () => {
    const folder = (await t.call('POST', '/drive/v1/files', { token: member, body: { kind: 'drive#folder', name: 'Films', parent_id: '' } })).body.file
    const film = await uploadFile(t, member, 'Film.mkv', clip, folder.id)
    clipFiles.push({ token: member, id: film.id })
    await uploadFile(t, member, 'Film.srt', Buffer.from(SUBTITLES.replace('Hello from inside', 'Plain file')), folder.id)
    await uploadFile(t, member, 'Film.zh-CN.ass', Buffer.from('[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:00.00,0:00:02.00,Default,,0,0,0,,你好\n'), folder.id)
    await uploadFile(t, member, 'Other.srt', Buffer.from(SUBTITLES), folder.id)
    const list = await until('the probe', async () => {
      const reply = await t.call('GET', `/drive/v1/files/${film.id}/subtitles`, { token: member })
      return reply.body.subtitles.some((s: any) => s.source === 'embedded') && reply.body
    })
    expect(list.subtitles.map((s: any) => [s.source, s.label, s.language])).toEqual([
      ['embedded', 'English', 'eng'],
      ['file', 'Film.srt', ''],
      ['file', 'Film.zh-CN.ass', 'zh-CN'],
    ])
    const texts = []
    for (const s of list.subtitles) {
      const reply = await t.call('GET', pathOf(s.url))
      expect(reply.status).toBe(200)
      expect(reply.headers['content-type']).toMatch(/^text\/vtt/)
      texts.push(String(reply.body))
    }
    expect(texts.every((v) => v.startsWith('WEBVTT'))).toBe(true)
    expect(texts[0]).toContain('Hello from inside')
    expect(texts[1]).toContain('Plain file')
    expect(texts[2]).toContain('你好')
    // Someone else's file id in a subtitle link, even with this video's valid signature for it, is refused.
    expect((await t.call('GET', `/drive/v1/files/${film.id}/subtitles`, { token: free })).body.error).toBe(DriveErrors.file_not_found.reason)
  })

  it('converts a subtitle file once when many ask for it at once', async () => {
    const folder = (await t.call('POST', '/drive/v1/files', { token: member, body: { kind: 'drive#folder', name: 'Busy', parent_id: '' } })).body.file
    const clip = await uploadFile(t, member, 'Busy.mp4', randomBytes(64), folder.id)
    const sub = await uploadFile(t, member, 'Busy.srt', Buffer.from(SUBTITLES.replace('Hello from inside', `Busy ${randomBytes(4).toString('hex')}`)), folder.id)
    // ffmpeg behind a wrapper that counts its runs.
    const dir = mkdtempSync(join(tmpdir(), 'cumulus-ffmpeg-count-'))
    try {
      const wrapper = join(dir, 'ffmpeg')
      writeFileSync(wrapper, `#!/bin/sh\necho run >> ${join(dir, 'runs')}\nexec ffmpeg "$@"\n`, { mode: 0o755 })
      const deps = { ...t.server.drive, config: { ...t.server.drive.config, ffmpegPath: wrapper } }
      const video = await t.server.drive.db.selectFrom('drive_files').selectAll().where('id', '=', clip.id).executeTakeFirstOrThrow()
      const texts = await Promise.all(Array.from({ length: 8 }, () => subtitleFileVtt(deps, video, sub.id)))
      expect(new Set(texts).size).toBe(1)
      expect(texts[0]).toContain('Busy ')
      expect(readFileSync(join(dir, 'runs'), 'utf8').trim().split('\n')).toHaveLength(1)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('remembers where each account stopped, and refuses positions that are not seconds', async () => {
    const path = `/drive/v1/files/${video.id}/playback`
    expect((await t.call('GET', path, { token: member })).body).toMatchObject({ position_seconds: 0, updated_time: '' })
    const saved = await t.call('PUT', path, { token: member, body: { position_seconds: 73.25, duration_seconds: 3 } })
    expect(saved.status).toBe(200)
    expect((await t.call('GET', path, { token: member })).body).toMatchObject({ kind: 'drive#playback', file_id: video.id, position_seconds: 73.25, duration_seconds: 3 })
    for (const body of [{ position_seconds: -1 }, { position_seconds: 'NaN' }, { position_seconds: 1e12 }, {}, { position_seconds: null }]) {
      const reply = await t.call('PUT', path, { token: member, body })
      expect(reply.status).toBe(400)
      expect(reply.body.error).toBe(GenericErrors.invalid_argument.reason)
    }
    // Another account cannot read or write it.
    expect((await t.call('GET', path, { token: free })).body.error).toBe(DriveErrors.file_not_found.reason)
    expect((await t.call('PUT', path, { token: free, body: { position_seconds: 1 } })).body.error).toBe(DriveErrors.file_not_found.reason)
  })

  it('answers any playback body with the position stored or the catalogue error, never a 5xx', async () => {
    const path = `/drive/v1/files/${video.id}/playback`
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.record({ position_seconds: fc.oneof(fc.double(), fc.integer(), fc.string(), fc.constant(null)), duration_seconds: fc.option(fc.double(), { nil: undefined }) })), async (body) => {
        const reply = await t.call('PUT', path, { token: member, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
        expect(reply.status).toBeLessThan(500)
        if (reply.status === 200) {
          const position = (body as { position_seconds: number }).position_seconds
          expect(reply.body.position_seconds).toBeCloseTo(Math.round(position * 1000) / 1000, 3)
        } else expect(reply.body.error).toBe(GenericErrors.invalid_argument.reason)
      }),
      { numRuns: 60 },
    )
  })

  it('deletes the renditions with the last file of the video', async () => {
    const db = t.server.drive.db
    const gcid = video.hash as string
    const renditions = await db.selectFrom('drive_media_renditions').select('blob_gcid').where('gcid', '=', gcid).execute()
    expect(renditions).toHaveLength(2)
    // Every file of this content, in both accounts, goes for good.
    for (const { token, id } of clipFiles) expect((await t.call('POST', '/drive/v1/files:batchDelete', { token, body: { ids: [id] } })).status).toBe(200)
    expect((await db.selectFrom('drive_playback').selectAll().where('file_id', '=', video.id).execute())).toEqual([])
    await collectGarbageBlobs(t.server.drive, 0)
    expect(await db.selectFrom('drive_media').selectAll().where('gcid', '=', gcid).execute()).toEqual([])
    expect(await db.selectFrom('drive_media_renditions').selectAll().where('gcid', '=', gcid).execute()).toEqual([])
    // The renditions' files are garbage now, and go in the next round.
    await collectGarbageBlobs(t.server.drive, 0)
    for (const { blob_gcid } of renditions) expect(await t.server.drive.blobs.stat(blob_gcid)).toBeNull()
    await runDriveHousekeeping(t.server.drive)
  })
})

describe('video playback with S3 storage', () => {
  let s3: S3TestServer
  let t: DriveTestApp
  beforeAll(async () => {
    s3 = await startS3TestServer()
    const { accessKeyId, secretAccessKey } = S3_TEST_CREDENTIALS
    const storage = `s3://${accessKeyId}:${secretAccessKey}@${s3.bucket}/media-${randomBytes(4).toString('hex')}?endpoint=${encodeURIComponent(s3.endpoint)}&region=us-east-1&forcePathStyle=true`
    t = await startDriveTestApp({ TRANSCODE_PRESET: 'ultrafast', STORAGE_URL: storage })
  })
  afterAll(async () => {
    await t?.close()
    await s3?.stop()
  })

  it('transcodes from a temp copy (ffmpeg must seek) and serves the rendition from the bucket', async () => {
    const member = await t.signUp()
    await t.makeVip(member)
    const video = await uploadFile(t, member, 'wide.mp4', makeClip('mp4', '854x480'))
    const deadline = Date.now() + 60_000
    let body: any
    do {
      await sleep(200)
      body = (await t.call('GET', `/drive/v1/files/${video.id}`, { token: member })).body
    } while (body.params.transcode_status !== 'ready' && Date.now() < deadline)
    expect(body.medias.map((m: any) => m.media_name)).toEqual(['Original', '480P'])
    const playlist = String((await t.call('GET', pathOf(body.medias[1].link.url))).body)
    const map = /#EXT-X-MAP:URI="([^"]+)",BYTERANGE="(\d+)@0"/.exec(playlist)
    const init = await t.call('GET', pathOf(map![1]!), { headers: { range: `bytes=0-${Number(map![2]) - 1}` } })
    expect(init.status).toBe(206)
    expect(init.raw.subarray(4, 8).toString('latin1')).toBe('ftyp')
  }, 90_000)
})

describe('video playback without ffmpeg installed', () => {
  let t: DriveTestApp
  beforeAll(async () => {
    t = await startDriveTestApp({ FFMPEG_PATH: '/nonexistent/bin/ffmpeg' })
  })
  afterAll(async () => {
    await t?.close()
  })

  it('remembers nothing as impossible, so thumbnails and renditions are made once the tools are installed; the video still plays', async () => {
    const member = await t.signUp()
    await t.makeVip(member)
    const video = await uploadFile(t, member, 'later.mp4', makeClip('mp4', '854x480'))
    // The thumbnail link answers the catalogue's not-found, not a 500, and nothing is stored for it.
    const thumbnail = await t.call('GET', pathOf(video.thumbnail_link))
    expect(thumbnail.status).toBe(404)
    expect(thumbnail.body.error).toBe(DriveErrors.file_not_found.reason)
    // The job itself, on its last try: before, a missing tool marked the video unreadable for good.
    await runMediaJob(t.server.drive, { id: 'j', queue: 'drive.transcode', data: { gcid: video.hash, transcode: true }, attempt: 3, signal: new AbortController().signal, progress: async () => true })
    const db = t.server.drive.db
    expect(await db.selectFrom('drive_thumbnails').selectAll().where('gcid', '=', video.hash).execute()).toEqual([])
    expect(await db.selectFrom('drive_media').select('transcode_state').where('gcid', '=', video.hash).execute()).toEqual([])
    const body = (await t.call('GET', `/drive/v1/files/${video.id}`, { token: member })).body
    expect(body.medias.map((m: any) => m.media_name)).toEqual(['Original'])
    expect(body.medias[0].link.url).not.toBe('')
  })
})
