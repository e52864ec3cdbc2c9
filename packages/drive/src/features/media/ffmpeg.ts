import { spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import { RENDITION_NAMES, type RenditionName } from '@cumulus/protocol'
import type { X264Preset } from '../../config.js'
import { ToolMissing } from '../../lib/tools.js'
import type { SubtitleTrack, VideoProbe } from '../../domain/index.js'

export type { SubtitleTrack, VideoProbe }

/**
 * ffprobe and ffmpeg, run as child processes (decision 026): what a video holds, its HLS
 * renditions, and WebVTT from subtitle tracks and files. Nothing here parses a media format
 * itself; it reads ffprobe's JSON and ffmpeg's `-progress` lines.
 */

/** Why a video cannot be probed or transcoded: about the content, so it is remembered and not retried. */
export class MediaUnavailable extends Error {
  override readonly name = 'MediaUnavailable'
}

/** Subtitle codecs ffmpeg turns into WebVTT. */
const TEXT_SUBTITLE_CODECS = new Set(['subrip', 'srt', 'ass', 'ssa', 'mov_text', 'webvtt', 'text', 'microdvd', 'subviewer', 'jacosub', 'realtext', 'sami'])
/** A video's subtitle tracks beyond this many are not offered. */
const MAX_SUBTITLE_TRACKS = 16
const PROBE_TIMEOUT_MS = 60_000
const SUBTITLE_TIMEOUT_MS = 120_000
/** WebVTT larger than this is not kept (a subtitle track is tens of kilobytes). */
export const MAX_VTT_BYTES = 4 * 1024 * 1024

interface Run {
  code: number | null
  stdout: Buffer
  stderr: string
}

/** Runs a tool to its end, with its output gathered (stdout up to `maxStdoutBytes`), killed at the timeout or the signal. */
function run(path: string, args: string[], options: { timeoutMs: number; signal?: AbortSignal; stdin?: Readable; maxStdoutBytes?: number; onStdout?: (chunk: Buffer) => void }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    let outBytes = 0
    let err = ''
    let overflow = false
    const kill = () => child.kill('SIGKILL')
    const timer = setTimeout(kill, options.timeoutMs)
    options.signal?.addEventListener('abort', kill, { once: true })
    child.stdout?.on('data', (chunk: Buffer) => {
      if (options.onStdout) return options.onStdout(chunk)
      outBytes += chunk.byteLength
      if (outBytes > (options.maxStdoutBytes ?? 16 * 1024 * 1024)) {
        overflow = true
        kill()
      } else out.push(chunk)
    })
    child.stderr?.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)))
    if (options.stdin && child.stdin) {
      child.stdin.on('error', () => undefined)
      options.stdin.on('error', () => child.stdin?.destroy())
      options.stdin.pipe(child.stdin)
    }
    child.once('error', (error) => {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', kill)
      reject((error as NodeJS.ErrnoException).code === 'ENOENT' ? new ToolMissing(path) : error)
    })
    child.once('close', (code) => {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', kill)
      options.stdin?.destroy()
      if (options.signal?.aborted) return reject(options.signal.reason)
      if (overflow) return reject(new MediaUnavailable(`${path} wrote more than allowed`))
      resolve({ code, stdout: Buffer.concat(out), stderr: err })
    })
  })
}

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? ''

function number(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : Number.NaN
  return Number.isFinite(n) ? n : 0
}

function rate(value: unknown): number {
  if (typeof value !== 'string') return 0
  const [num, den] = value.split('/').map(Number)
  return num !== undefined && den ? Math.round((num / den) * 1000) / 1000 : number(value)
}

function text(value: unknown, max = 200): string {
  return typeof value === 'string' ? value.slice(0, max) : ''
}

type Stream = Record<string, unknown> & { tags?: Record<string, unknown>; disposition?: Record<string, unknown> }

/** Reads ffprobe's JSON (`-show_format -show_streams`) into a VideoProbe; MediaUnavailable when it holds no video. */
export function videoProbeOf(json: unknown): VideoProbe {
  const { streams, format } = (json ?? {}) as { streams?: Stream[]; format?: Record<string, unknown> }
  const all = Array.isArray(streams) ? streams : []
  // A cover picture (attached_pic) is a video stream too, and not the video.
  const video = all.find((s) => s['codec_type'] === 'video' && s.disposition?.['attached_pic'] !== 1)
  if (!video) throw new MediaUnavailable('no video stream')
  const audio = all.find((s) => s['codec_type'] === 'audio')
  const rotation = Math.abs(number((video['side_data_list'] as Record<string, unknown>[] | undefined)?.find((d) => 'rotation' in d)?.['rotation'] ?? video.tags?.['rotate']))
  const [width, height] = rotation === 90 || rotation === 270 ? [number(video['height']), number(video['width'])] : [number(video['width']), number(video['height'])]
  if (width <= 0 || height <= 0) throw new MediaUnavailable('the video stream has no size')
  const transfer = text(video['color_transfer'])
  const subtitleStreams = all.filter((s) => s['codec_type'] === 'subtitle')
  const subtitles: SubtitleTrack[] = []
  subtitleStreams.forEach((s, track) => {
    const codec = text(s['codec_name'])
    if (subtitles.length < MAX_SUBTITLE_TRACKS && TEXT_SUBTITLE_CODECS.has(codec)) {
      subtitles.push({ track, codec, language: text(s.tags?.['language'], 35).replace(/^und$/, ''), title: text(s.tags?.['title']), isDefault: s.disposition?.['default'] === 1 })
    }
  })
  return {
    width,
    height,
    duration: number(format?.['duration'] ?? video['duration']),
    bitRate: Math.round(number(format?.['bit_rate'])),
    frameRate: rate(video['avg_frame_rate']) || rate(video['r_frame_rate']),
    videoCodec: text(video['codec_name'], 40),
    audioCodec: audio ? text(audio['codec_name'], 40) : '',
    videoType: text(format?.['format_name'], 80),
    hdrType: transfer === 'smpte2084' ? 'HDR10' : transfer === 'arib-std-b67' ? 'HLG' : '',
    hasAudio: audio !== undefined,
    subtitles,
  }
}

/** Probes a video at `input` (a path). */
export async function probeVideo(ffprobePath: string, input: string, signal?: AbortSignal): Promise<VideoProbe> {
  const result = await run(ffprobePath, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input], { timeoutMs: PROBE_TIMEOUT_MS, ...(signal ? { signal } : {}) })
  if (result.code !== 0) throw new MediaUnavailable(`ffprobe could not read it: ${lastLine(result.stderr)}`)
  let json: unknown
  try {
    json = JSON.parse(result.stdout.toString('utf8'))
  } catch {
    throw new MediaUnavailable('ffprobe wrote no JSON')
  }
  return videoProbeOf(json)
}

/** One rung of the ladder: a rendition's name, its size and its x264 rate cap. */
export interface Rung {
  name: RenditionName
  width: number
  height: number
  maxRateKbps: number
}

const LADDER: Record<RenditionName, { height: number; maxRateKbps: number }> = {
  '1080P': { height: 1080, maxRateKbps: 6000 },
  '720P': { height: 720, maxRateKbps: 3000 },
  '480P': { height: 480, maxRateKbps: 1500 },
}

/**
 * The renditions a video gets: each rung not above the source (measured on its shorter side, so a
 * portrait video is ranked like its landscape twin), the width following the aspect ratio, even.
 */
export function ladderFor(source: { width: number; height: number }): Rung[] {
  const short = Math.min(source.width, source.height)
  const portrait = source.height > source.width
  const rungs: Rung[] = []
  for (const name of RENDITION_NAMES) {
    const { height: rungShort, maxRateKbps } = LADDER[name]
    if (rungShort > short) continue
    const long = Math.max(2, Math.round(((Math.max(source.width, source.height) * rungShort) / short) / 2) * 2)
    rungs.push(portrait ? { name, width: rungShort, height: long, maxRateKbps } : { name, width: long, height: rungShort, maxRateKbps })
  }
  return rungs
}

/** HLS segment length, seconds: keyframes are forced on these boundaries in every rendition, so players switch between them cleanly. */
export const SEGMENT_SECONDS = 4
/** The name each rendition's single file has in its playlist (replaced by a signed URL when served). */
export const RENDITION_FILE = 'media.mp4'

/**
 * The one ffmpeg command that makes every rung at once: the source is decoded once and split,
 * each rendition an fMP4 HLS stream in a single file (`-hls_flags single_file`: one blob per
 * rendition, segments as byte ranges). `outputDir(rung)` names a folder per rung. Exported so
 * the media benchmark runs exactly this command on its own.
 */
export function transcodeArgs(input: string, rungs: readonly Rung[], outputDir: (rung: Rung) => string, options: { preset: X264Preset; hasAudio: boolean }): string[] {
  const split = rungs.map((_, i) => `[s${i}]`).join('')
  const scales = rungs.map((rung, i) => `[s${i}]scale=${rung.width}:${rung.height}:flags=bicubic,setsar=1[v${i}]`).join(';')
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-i', input, '-filter_complex', `[0:v:0]split=${rungs.length}${split};${scales}`]
  rungs.forEach((rung, i) => {
    const dir = outputDir(rung)
    args.push('-map', `[v${i}]`)
    if (options.hasAudio) args.push('-map', '0:a:0', '-c:a', 'aac', '-b:a', '128k', '-ac', '2')
    args.push(
      '-c:v', 'libx264', '-preset', options.preset, '-profile:v', 'high', '-pix_fmt', 'yuv420p',
      '-crf', '21', '-maxrate', `${rung.maxRateKbps}k`, '-bufsize', `${rung.maxRateKbps * 2}k`,
      '-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`, '-sc_threshold', '0',
      '-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod', '-hls_segment_type', 'fmp4', '-hls_flags', 'single_file',
      '-hls_fmp4_init_filename', RENDITION_FILE, '-hls_segment_filename', `${dir}/${RENDITION_FILE}`, `${dir}/index.m3u8`,
    )
  })
  args.push('-progress', 'pipe:1', '-stats_period', '1')
  return args
}

/**
 * Runs a transcode, calling `onProgress` with the seconds of output done so far (from ffmpeg's
 * `-progress` lines). Rejects MediaUnavailable when ffmpeg fails on the content, the signal's
 * reason when aborted.
 */
export async function runTranscode(ffmpegPath: string, args: string[], options: { signal: AbortSignal; onProgress: (outSeconds: number) => void; timeoutMs: number }): Promise<void> {
  let pending = ''
  const result = await run(ffmpegPath, args, {
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    onStdout: (chunk) => {
      pending += chunk.toString('latin1')
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        // out_time_us is microseconds despite ffmpeg 5's out_time_ms name; both carry the same value.
        const match = /^out_time_us=(\d+)/.exec(line)
        if (match) options.onProgress(Number(match[1]) / 1e6)
      }
    },
  })
  if (result.code !== 0) throw new MediaUnavailable(`ffmpeg could not transcode it (exit ${result.code}): ${lastLine(result.stderr)}`)
}

/** One subtitle track of the video at `input` as WebVTT. */
export async function extractSubtitle(ffmpegPath: string, input: string, track: number, signal?: AbortSignal): Promise<string> {
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', input, '-map', `0:s:${track}`, '-c:s', 'webvtt', '-f', 'webvtt', 'pipe:1']
  const result = await run(ffmpegPath, args, { timeoutMs: SUBTITLE_TIMEOUT_MS, maxStdoutBytes: MAX_VTT_BYTES, ...(signal ? { signal } : {}) })
  if (result.code !== 0) throw new MediaUnavailable(`ffmpeg could not read subtitle track ${track}: ${lastLine(result.stderr)}`)
  return result.stdout.toString('utf8')
}

/** A subtitle file (SubRip, ASS/SSA, WebVTT, fed on stdin) as WebVTT. */
export async function subtitleFileToVtt(ffmpegPath: string, content: Readable, format: 'srt' | 'ass' | 'webvtt', signal?: AbortSignal): Promise<string> {
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-f', format, '-i', 'pipe:0', '-c:s', 'webvtt', '-f', 'webvtt', 'pipe:1']
  const result = await run(ffmpegPath, args.filter((a) => a !== '-nostdin'), { timeoutMs: SUBTITLE_TIMEOUT_MS, maxStdoutBytes: MAX_VTT_BYTES, stdin: content, ...(signal ? { signal } : {}) })
  if (result.code !== 0) throw new MediaUnavailable(`ffmpeg could not read the subtitle file: ${lastLine(result.stderr)}`)
  return result.stdout.toString('utf8')
}
