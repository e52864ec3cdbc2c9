import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MediaUnavailable, ladderFor, transcodeArgs, videoProbeOf } from './ffmpeg.js'
import { masterPlaylist, peakBandwidth, variantPlaylist } from './playlists.js'
import { subtitleFileMatch } from './subtitles.js'

describe('ladderFor', () => {
  it('gives the rungs not above the source, on its shorter side', () => {
    expect(ladderFor({ width: 3840, height: 2160 }).map((r) => [r.name, r.width, r.height])).toEqual([
      ['1080P', 1920, 1080],
      ['720P', 1280, 720],
      ['480P', 854, 480],
    ])
    expect(ladderFor({ width: 1280, height: 720 }).map((r) => r.name)).toEqual(['720P', '480P'])
    // Portrait: a phone's 1080x1920 is a 1080P video standing up.
    expect(ladderFor({ width: 1080, height: 1920 }).map((r) => [r.name, r.width, r.height])[0]).toEqual(['1080P', 1080, 1920])
    expect(ladderFor({ width: 640, height: 360 })).toEqual([])
  })

  it('never enlarges, keeps the aspect ratio within a pixel or two, and gives even sizes (x264 needs them)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 8192 }), fc.integer({ min: 2, max: 8192 }), (width, height) => {
        for (const rung of ladderFor({ width, height })) {
          expect(rung.width).toBeLessThanOrEqual(Math.max(width, 2) + 1)
          expect(rung.height).toBeLessThanOrEqual(Math.max(height, 2) + 1)
          expect(rung.width % 2).toBe(0)
          expect(rung.height % 2).toBe(0)
          expect(Math.abs(rung.width / rung.height - width / height)).toBeLessThan((2 / Math.min(rung.width, rung.height)) * (width / height) + 0.01)
        }
      }),
    )
  })
})

describe('transcodeArgs', () => {
  it('decodes once and writes each rung as a single-file fMP4 HLS stream with aligned keyframes', () => {
    const rungs = ladderFor({ width: 1920, height: 1080 })
    const args = transcodeArgs('/data/blobs/AB/CD/X', rungs, (rung) => `/tmp/out/${rung.name}`, { preset: 'veryfast', hasAudio: true })
    expect(args.filter((a) => a === '-i')).toHaveLength(1)
    expect(args[args.indexOf('-filter_complex') + 1]).toMatch(/^\[0:v:0\]split=3/)
    expect(args.filter((a) => a === 'single_file')).toHaveLength(3)
    expect(args.filter((a) => a.startsWith('expr:gte(t,n_forced*4)'))).toHaveLength(3)
    expect(args).toContain('/tmp/out/720P/index.m3u8')
    expect(transcodeArgs('in', rungs, () => 'o', { preset: 'ultrafast', hasAudio: false })).not.toContain('0:a:0')
  })
})

describe('videoProbeOf', () => {
  const probe = (streams: unknown[], format: Record<string, unknown> = { duration: '60.5', bit_rate: '4000000', format_name: 'matroska,webm' }) => videoProbeOf({ streams, format })

  it('reads the video, the audio and the text subtitle tracks; a cover picture is not the video', () => {
    const result = probe([
      { codec_type: 'video', codec_name: 'mjpeg', width: 600, height: 600, disposition: { attached_pic: 1 } },
      { codec_type: 'video', codec_name: 'hevc', width: 3840, height: 2160, avg_frame_rate: '24000/1001', color_transfer: 'smpte2084' },
      { codec_type: 'audio', codec_name: 'eac3' },
      { codec_type: 'subtitle', codec_name: 'subrip', tags: { language: 'eng', title: 'English' }, disposition: { default: 1 } },
      { codec_type: 'subtitle', codec_name: 'hdmv_pgs_subtitle', tags: { language: 'fre' } },
      { codec_type: 'subtitle', codec_name: 'ass', tags: { language: 'und' } },
    ])
    expect(result).toMatchObject({ width: 3840, height: 2160, duration: 60.5, bitRate: 4_000_000, frameRate: 23.976, videoCodec: 'hevc', audioCodec: 'eac3', hdrType: 'HDR10', hasAudio: true })
    // The image-based track (PGS) is skipped; tracks keep their order among the subtitle streams.
    expect(result.subtitles).toEqual([
      { track: 0, codec: 'subrip', language: 'eng', title: 'English', isDefault: true },
      { track: 2, codec: 'ass', language: '', title: '', isDefault: false },
    ])
  })

  it('turns a rotated phone video upright', () => {
    expect(probe([{ codec_type: 'video', width: 1920, height: 1080, side_data_list: [{ rotation: -90 }] }])).toMatchObject({ width: 1080, height: 1920 })
  })

  it('refuses what holds no video, whatever ffprobe wrote', () => {
    expect(() => probe([{ codec_type: 'audio', codec_name: 'mp3' }])).toThrow(MediaUnavailable)
    fc.assert(
      fc.property(fc.anything(), (json) => {
        try {
          const result = videoProbeOf(json)
          expect(result.width).toBeGreaterThan(0)
        } catch (err) {
          expect(err).toBeInstanceOf(MediaUnavailable)
        }
      }),
    )
  })
})

const VARIANT = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-TARGETDURATION:4', '#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-MAP:URI="media.mp4",BYTERANGE="1334@0"', '#EXTINF:4.000000,', '#EXT-X-BYTERANGE:2000000@1334', 'media.mp4', '#EXTINF:2.000000,', '#EXT-X-BYTERANGE:1500000@2001334', 'media.mp4', '#EXT-X-ENDLIST', ''].join('\n')

describe('playlists', () => {
  it('finds the highest segment rate', () => {
    // 2,000,000 bytes in 4 s is 4 Mbit/s; 1,500,000 bytes in 2 s is 6 Mbit/s.
    expect(peakBandwidth(VARIANT)).toBe(6_000_000)
  })

  it('swaps the file name for the signed URL in the map and on every segment line, and nowhere else', () => {
    const url = 'https://drive.example/drive/v1/media/F/720P/media.mp4?e=1&s=x'
    const out = variantPlaylist(VARIANT, url)
    expect(out).toContain(`#EXT-X-MAP:URI="${url}",BYTERANGE="1334@0"`)
    expect(out.split('\n').filter((line) => line === url)).toHaveLength(2)
    expect(out).not.toMatch(/^media\.mp4$/m)
  })

  it('lists the renditions tallest first with their rates and sizes', () => {
    const master = masterPlaylist(
      [
        { width: 854, height: 480, bandwidth: 900_000, peakBandwidth: 1_400_000, url: 'u480' },
        { width: 1920, height: 1080, bandwidth: 4_000_000, peakBandwidth: 6_000_000, url: 'u1080' },
      ],
      25,
    )
    expect(master.split('\n')).toEqual([
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-STREAM-INF:BANDWIDTH=6000000,AVERAGE-BANDWIDTH=4000000,RESOLUTION=1920x1080,FRAME-RATE=25.000',
      'u1080',
      '#EXT-X-STREAM-INF:BANDWIDTH=1400000,AVERAGE-BANDWIDTH=900000,RESOLUTION=854x480,FRAME-RATE=25.000',
      'u480',
      '',
    ])
  })
})

describe('subtitleFileMatch', () => {
  it('matches subtitle files named after the video, with an optional language tag', () => {
    expect(subtitleFileMatch('Movie.mkv', 'Movie.srt')).toEqual({ language: '' })
    expect(subtitleFileMatch('Movie.mkv', 'movie.EN.srt')).toEqual({ language: 'EN' })
    expect(subtitleFileMatch('Movie.2019.mkv', 'Movie.2019.zh_CN.ass')).toEqual({ language: 'zh-CN' })
    expect(subtitleFileMatch('Movie.mkv', 'Movie.Director commentary.vtt')).toEqual({ language: '' })
    expect(subtitleFileMatch('Movie.mkv', 'Movie2.srt')).toBeNull()
    expect(subtitleFileMatch('Movie.mkv', 'Movie.txt')).toBeNull()
    expect(subtitleFileMatch('Movie.mkv', 'Movie.mkv')).toBeNull()
  })

  it('never matches a file whose name does not start with the video name, whatever the names', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.constantFrom('.srt', '.ass', '.ssa', '.vtt', '.SRT'), (video, other, ext) => {
        const candidate = `${other}${ext}`
        const match = subtitleFileMatch(`${video}.mkv`, candidate)
        if (match) {
          const videoStem = video.normalize('NFC').toLowerCase()
          expect(candidate.normalize('NFC').toLowerCase().startsWith(videoStem)).toBe(true)
          expect(match.language.length).toBeLessThanOrEqual(16)
        }
      }),
    )
  })
})
