// @vitest-environment node
import type { DriveMedia } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import { aFile, aMedia as aMediaOf } from '../fake-drive-api'
import { initialQuality, qualityOptions, sourceFor, videoSourcesOf } from './video-sources'

const aMedia = (name: string, overrides: Partial<DriveMedia> = {}) => aMediaOf(name, overrides, { original: '/drive/v1/content/v1?e=1&s=a', rendition: (n) => `/drive/v1/media/v1/${n}.m3u8?s=b` })

const locked = { need_more_quota: true, link: { url: '', token: '', expire: '', type: '' }, vip_types: ['vip'] }

const memberVideo = () =>
  aFile({
    name: 'film.mp4',
    file_category: 'VIDEO',
    medias: [aMedia('Original'), aMedia('720P'), aMedia('1080P'), aMedia('480P')],
    params: { transcode_status: 'ready', transcode_progress: '100', hls_url: '/drive/v1/media/v1/master.m3u8?s=c' },
  })

describe('videoSourcesOf', () => {
  it('reads the Original, the renditions tallest first, the master playlist and the transcode', () => {
    expect(videoSourcesOf(memberVideo())).toEqual({
      originalUrl: '/drive/v1/content/v1?e=1&s=a',
      originalLocked: false,
      hlsUrl: '/drive/v1/media/v1/master.m3u8?s=c',
      renditions: [
        { name: '1080P', height: 1080, url: '/drive/v1/media/v1/1080P.m3u8?s=b', locked: false },
        { name: '720P', height: 720, url: '/drive/v1/media/v1/720P.m3u8?s=b', locked: false },
        { name: '480P', height: 480, url: '/drive/v1/media/v1/480P.m3u8?s=b', locked: false },
      ],
      transcodeStatus: 'ready',
      transcodePercent: 100,
      playLimited: false,
      renditionIsDefault: false,
    })
  })

  it('marks members-only renditions and a used-up Original locked', () => {
    const file = aFile({ name: 'a.mp4', medias: [aMedia('Original', locked), aMedia('720P', locked)], params: { transcode_status: 'ready', play_limited: 'true' } })
    expect(videoSourcesOf(file)).toMatchObject({ originalUrl: '', originalLocked: true, hlsUrl: '', renditions: [{ name: '720P', url: '', locked: true }], playLimited: true })
  })

  it('plays the download link of a detail without medias, and reads an unknown status as none', () => {
    const file = aFile({ name: 'old.mp4', web_content_link: '/drive/v1/content/x?s=1', params: { transcode_status: 'bogus', transcode_progress: 'x' } })
    expect(videoSourcesOf(file)).toMatchObject({ originalUrl: '/drive/v1/content/x?s=1', originalLocked: false, renditions: [], transcodeStatus: 'none', transcodePercent: 0 })
    expect(videoSourcesOf(aFile({ name: 'r.mp4', params: { transcode_status: 'running', transcode_progress: '42' } }))).toMatchObject({ transcodeStatus: 'running', transcodePercent: 42 })
  })
})

describe('the quality menu', () => {
  it('offers Auto, each rendition and the Original to a member with hls.js', () => {
    const options = qualityOptions(videoSourcesOf(memberVideo()), 'mse')
    expect(options).toEqual(['auto', '1080P', '720P', '480P', 'original'].map((value) => ({ value, locked: false })))
    expect(initialQuality(options, { originalPlaysHere: true })).toBe('original')
    // An Original this browser cannot play (an .mkv of HEVC, say) starts on Auto.
    expect(initialQuality(options, { originalPlaysHere: false })).toBe('auto')
  })

  it('starts on Auto when the server makes a rendition the default (a member\'s HD versions)', () => {
    const file = memberVideo()
    file.medias = file.medias.map((media) => ({ ...media, is_default: media.media_name === '1080P' }))
    const sources = videoSourcesOf(file)
    expect(sources.renditionIsDefault).toBe(true)
    const options = qualityOptions(sources, 'mse')
    expect(initialQuality(options, { originalPlaysHere: true, renditionIsDefault: true })).toBe('auto')
    // Where only the Original can play (no HLS here), it plays.
    expect(initialQuality(qualityOptions(sources, 'none'), { originalPlaysHere: true, renditionIsDefault: true })).toBe('original')
  })

  it('lists a non-member\'s renditions locked, and starts on the Original', () => {
    const file = aFile({ name: 'a.mp4', medias: [aMedia('Original'), aMedia('1080P', locked), aMedia('720P', locked)], params: { transcode_status: 'ready' } })
    const sources = videoSourcesOf(file)
    // A locked rendition is never the default, whatever the server marks.
    expect(videoSourcesOf({ ...file, medias: file.medias.map((media) => ({ ...media, is_default: media.media_name === '1080P' })) }).renditionIsDefault).toBe(false)
    const options = qualityOptions(sources, 'mse')
    expect(options).toEqual([
      { value: '1080P', locked: true },
      { value: '720P', locked: true },
      { value: 'original', locked: false },
    ])
    expect(initialQuality(options, { originalPlaysHere: false })).toBe('original')
  })

  it('has nothing to play when the plays are used up and HD is for members', () => {
    const file = aFile({ name: 'a.mp4', medias: [aMedia('Original', locked), aMedia('720P', locked)], params: { play_limited: 'true' } })
    const options = qualityOptions(videoSourcesOf(file), 'mse')
    expect(options).toEqual([
      { value: '720P', locked: true },
      { value: 'original', locked: true },
    ])
    expect(initialQuality(options, { originalPlaysHere: true })).toBeNull()
  })

  it('offers only the Original where HLS cannot play, and no Auto without a master playlist', () => {
    const sources = videoSourcesOf(memberVideo())
    expect(qualityOptions(sources, 'none')).toEqual([{ value: 'original', locked: false }])
    expect(qualityOptions({ ...sources, hlsUrl: '' }, 'mse').map((o) => o.value)).toEqual(['1080P', '720P', '480P', 'original'])
  })
})

describe('sourceFor', () => {
  const sources = videoSourcesOf(memberVideo())

  it('plays every HLS choice through one master load with hls.js, changing only the level', () => {
    expect(sourceFor('auto', sources, 'mse')).toEqual({ key: 'hls:master', source: { kind: 'hls', url: sources.hlsUrl, height: -1 } })
    expect(sourceFor('480P', sources, 'mse')).toEqual({ key: 'hls:master', source: { kind: 'hls', url: sources.hlsUrl, height: 480 } })
    expect(sourceFor('original', sources, 'mse')).toEqual({ key: 'original', source: { kind: 'file', url: sources.originalUrl } })
  })

  it('plays a rendition natively through its own variant playlist', () => {
    expect(sourceFor('auto', sources, 'native')).toMatchObject({ key: 'hls:master' })
    expect(sourceFor('720P', sources, 'native')).toEqual({ key: 'hls:720P', source: { kind: 'hls', url: '/drive/v1/media/v1/720P.m3u8?s=b', height: -1 } })
    expect(sourceFor('720P', sources, 'none')).toBeNull()
  })
})
