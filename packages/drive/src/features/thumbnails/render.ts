import { spawn } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ToolMissing } from '../../lib/tools.js'

/** The longest side of a thumbnail, in pixels: sharp on a grid tile at 2x, and small. */
export const THUMBNAIL_PX = 320
/** Decompression bombs: an image of more pixels than this is not thumbnailed (about 100 MP). */
const MAX_INPUT_PIXELS = 100_000_000
/** Frames the poster is chosen among (about a second at 30 fps). */
const POSTER_CANDIDATE_FRAMES = 30
const FFMPEG_TIMEOUT_MS = 60_000
/** The largest poster frame (a PNG) taken from ffmpeg. */
const MAX_FRAME_BYTES = 32 * 1024 * 1024
/** A video whose container needs seeking (an MP4 with its index at the end) is copied to a temp file up to this size. */
const MAX_VIDEO_COPY_BYTES = 4 * 1024 ** 3

export interface RenderedThumbnail {
  data: Buffer
  width: number
  height: number
}

/** Why a thumbnail cannot be made; remembered, so it is not tried again. */
export class ThumbnailUnavailable extends Error {
  override readonly name = 'ThumbnailUnavailable'
}

type Sharp = typeof import('sharp')
let sharpModule: Promise<Sharp> | null = null
// sharp (libvips) is loaded with the first thumbnail, not with the server (decision 023).
const loadSharp = () => (sharpModule ??= import('sharp').then((m) => (m as unknown as { default: Sharp }).default ?? m))

/**
 * An image's thumbnail (from a buffer or a file's path): EXIF orientation applied, fitted inside
 * THUMBNAIL_PX, never enlarged, WebP. A buffer is decoded in place; a path is read by libvips off
 * the main thread. Never a stream: sharp gathers a stream whole in memory before it decodes.
 */
export async function renderImage(input: Buffer | string): Promise<RenderedThumbnail> {
  const sharp = await loadSharp()
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'truncated', animated: false } as const
  try {
    const { data, info } = await sharp(input, options)
      .rotate()
      .resize({ width: THUMBNAIL_PX, height: THUMBNAIL_PX, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 72, effort: 3 })
      .toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: info.height }
  } catch (err) {
    throw new ThumbnailUnavailable(`not an image sharp can read: ${(err as Error).message}`, { cause: err })
  }
}

/** A poster frame past MAX_FRAME_BYTES: trying again from a file would find the same frame. */
class FrameTooLarge extends ThumbnailUnavailable {}

/** Runs ffmpeg for one PNG frame of `source` (a path, or `pipe:0` fed by `stdin`). */
function grabFrame(ffmpegPath: string, source: string, stdin: Readable | null): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // ffmpeg's `thumbnail` filter picks the most representative of the first frames (not a black
    // fade-in), and needs no seeking, so a pipe works as well as a file.
    const args = ['-hide_banner', '-loglevel', 'error', '-i', source, '-vf', `thumbnail=${POSTER_CANDIDATE_FRAMES},scale='min(${THUMBNAIL_PX * 2},iw)':-2`]
    args.push('-frames:v', '1', '-an', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1')
    const child = spawn(ffmpegPath, args, { stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    let outBytes = 0
    let err = ''
    const timer = setTimeout(() => child.kill('SIGKILL'), FFMPEG_TIMEOUT_MS)
    child.stdout?.on('data', (chunk: Buffer) => {
      // One frame at most 640 px wide, but as tall as the video says: a frame past the bound is
      // refused rather than gathered.
      outBytes += chunk.byteLength
      if (outBytes > MAX_FRAME_BYTES) child.kill('SIGKILL')
      else out.push(chunk)
    })
    child.stderr?.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-2000)))
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    if (stdin && child.stdin) {
      // ffmpeg stops reading once it has its frame: the rest of the stream is not an error.
      child.stdin.on('error', () => undefined)
      stdin.on('error', () => child.stdin?.destroy())
      stdin.pipe(child.stdin)
    }
    child.once('close', (code) => {
      clearTimeout(timer)
      stdin?.destroy()
      if (outBytes > MAX_FRAME_BYTES) return reject(new FrameTooLarge(`ffmpeg's frame is larger than ${MAX_FRAME_BYTES} bytes`))
      const frame = Buffer.concat(out)
      if (code === 0 && frame.byteLength > 0) resolve(frame)
      else reject(new ThumbnailUnavailable(`ffmpeg found no frame (exit ${code}): ${err.trim().split('\n').at(-1) ?? ''}`))
    })
  })
}

/**
 * A video's poster frame, as a thumbnail. Tried from the stream first (most containers); a file
 * that needs seeking (an MP4 whose index is at the end) is copied to a temp file and tried again.
 */
export async function renderVideo(ffmpegPath: string, open: () => Promise<Readable>, sizeBytes: number): Promise<RenderedThumbnail> {
  let frame: Buffer
  try {
    frame = await grabFrame(ffmpegPath, 'pipe:0', await open())
  } catch (first) {
    if ((first as NodeJS.ErrnoException).code === 'ENOENT') throw new ToolMissing(ffmpegPath)
    if (sizeBytes > MAX_VIDEO_COPY_BYTES || first instanceof FrameTooLarge) throw first
    const dir = await mkdtemp(join(tmpdir(), 'cumulus-poster-'))
    try {
      const path = join(dir, 'video')
      await pipeline(await open(), createWriteStream(path))
      frame = await grabFrame(ffmpegPath, path, null)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }
  return renderImage(frame)
}
