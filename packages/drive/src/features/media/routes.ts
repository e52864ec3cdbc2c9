import { AppError, DriveErrors, RENDITION_NAMES, type RenditionName } from '@cumulus/protocol'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { IdStr, Loose, OptStr } from '../../http/schemas.js'
import { countPlay, probeOf, requireDownloadable, signedMediaUrl } from '../../domain/index.js'
import { sendBlob } from '../../http/send-blob.js'
import { masterPlaylist, variantPlaylist } from './playlists.js'
import { getPlayback, savePlayback } from './playback.js'
import { contentDisposition } from '../../http/content-disposition.js'
import { embeddedSubtitle, listSubtitles, subtitleFileVtt } from './subtitles.js'

/**
 * Playback (issue 13 §3). Under `/drive/v1/media/:fileId/` the parts a player fetches without
 * the bearer, each through its own signed link from the video's detail: the master playlist, a
 * rendition's playlist and file (byte ranges), and subtitle tracks as WebVTT. With the bearer:
 * a video's subtitle list and the caller's playback position.
 */

const signed = Loose({ e: OptStr(16), s: OptStr(128) })
/** A link that starts a play also carries the plan's daily count it was signed with. */
const playing = Loose({ e: OptStr(16), s: OptStr(128), l: Type.Optional(Type.String({ pattern: '^-?\\d{1,9}$' })) })
const HLS_TYPE = 'application/vnd.apple.mpegurl'
const rendition = Type.Union(RENDITION_NAMES.map((name) => Type.Literal(name)))

function cacheUntil(reply: FastifyReply, linkExpiresAtSeconds: number, nowMs: number): void {
  reply.header('cache-control', `private, max-age=${Math.max(0, linkExpiresAtSeconds - Math.floor(nowMs / 1000))}`).header('x-content-type-options', 'nosniff')
}

export async function mediaRoutes(base: FastifyInstance, { deps, authenticate, callerOf }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  /** Checks a play link (its signature covers `l`) and counts the play: once per video and day, refused past the count. A HEAD plays nothing. */
  const startPlay = async (fileId: string, query: { e?: string; s?: string; l?: string }, part: string, method = 'GET') => {
    const limit = query.l ?? 'none'
    const found = await requireDownloadable(deps, fileId, query, `media:${part}:${limit}`)
    if (method !== 'HEAD' && !(await countPlay(deps, found.file.user_id, found.file.id, Number(limit)))) {
      throw new AppError(DriveErrors.play_limit_reached, { description: "today's plays of the plan are used up", metadata: { id: fileId } })
    }
    return { ...found, limit: Number(limit) }
  }
  const renditionOf = async (gcid: string, name: RenditionName, fileId: string) => {
    const row = await deps.db.selectFrom('drive_media_renditions').selectAll().where('gcid', '=', gcid).where('name', '=', name).executeTakeFirst()
    if (!row) throw new AppError(DriveErrors.file_not_found, { description: `this video has no ${name} rendition`, metadata: { id: fileId } })
    return row
  }

  app.route({
    method: ['GET', 'HEAD'],
    url: '/drive/v1/media/:fileId/original',
    schema: { params: Type.Object({ fileId: IdStr }), querystring: playing },
    handler: async (request, reply) => {
      const { file, linkExpiresAtSeconds } = await startPlay((request.params as { fileId: string }).fileId, request.query as { e?: string; s?: string; l?: string }, 'origin', request.method)
      reply.header('content-disposition', contentDisposition('inline', file.name)).header('content-security-policy', "default-src 'none'; media-src 'self'; sandbox")
      return sendBlob(deps, request, reply, { gcid: file.gcid, size: file.size, etag: `"${file.gcid}"`, contentType: file.mime_type.startsWith('video/') ? file.mime_type : 'application/octet-stream', lastModifiedMs: file.modified_at, linkExpiresAtSeconds })
    },
  })

  app.get('/drive/v1/media/:fileId/master.m3u8', { schema: { params: Type.Object({ fileId: IdStr }), querystring: playing } }, async (request, reply) => {
    const { file, linkExpiresAtSeconds, limit } = await startPlay(request.params.fileId, request.query, 'master')
    const [renditions, media] = await Promise.all([
      deps.db.selectFrom('drive_media_renditions').select(['name', 'width', 'height', 'bandwidth', 'peak_bandwidth']).where('gcid', '=', file.gcid).execute(),
      deps.db.selectFrom('drive_media').select('probe').where('gcid', '=', file.gcid).executeTakeFirst(),
    ])
    const ids = { fileId: file.id, gcid: file.gcid }
    const entries = renditions.map((r) => ({ width: r.width, height: r.height, bandwidth: r.bandwidth, peakBandwidth: r.peak_bandwidth, url: signedMediaUrl(deps, ids, r.name, `${r.name}/index.m3u8`, limit) }))
    cacheUntil(reply, linkExpiresAtSeconds, deps.clock.nowMs())
    return reply.type(HLS_TYPE).send(masterPlaylist(entries, probeOf(media)?.frameRate ?? 0))
  })

  app.get('/drive/v1/media/:fileId/:rendition/index.m3u8', { schema: { params: Type.Object({ fileId: IdStr, rendition }), querystring: playing } }, async (request, reply) => {
    const name = request.params.rendition as RenditionName
    const { file, linkExpiresAtSeconds } = await startPlay(request.params.fileId, request.query, name)
    const row = await renditionOf(file.gcid, name, file.id)
    cacheUntil(reply, linkExpiresAtSeconds, deps.clock.nowMs())
    const fileUrl = signedMediaUrl(deps, { fileId: file.id, gcid: file.gcid }, `${name}.mp4`, `${name}/media.mp4`)
    return reply.type(HLS_TYPE).send(variantPlaylist(row.playlist, fileUrl))
  })

  app.route({
    method: ['GET', 'HEAD'],
    url: '/drive/v1/media/:fileId/:rendition/media.mp4',
    schema: { params: Type.Object({ fileId: IdStr, rendition }), querystring: signed },
    handler: async (request, reply) => {
      const { fileId, rendition: name } = request.params as { fileId: string; rendition: RenditionName }
      const { file, linkExpiresAtSeconds } = await requireDownloadable(deps, fileId, request.query as { e?: string; s?: string }, `media:${name}.mp4`)
      const row = await renditionOf(file.gcid, name, file.id)
      return sendBlob(deps, request, reply, { gcid: row.blob_gcid, size: row.blob_size, etag: `"${row.blob_gcid}"`, contentType: 'video/mp4', lastModifiedMs: file.modified_at, linkExpiresAtSeconds })
    },
  })

  const sendVtt = (reply: FastifyReply, vtt: string, linkExpiresAtSeconds: number) => {
    cacheUntil(reply, linkExpiresAtSeconds, deps.clock.nowMs())
    return reply.type('text/vtt; charset=utf-8').send(vtt)
  }

  app.get('/drive/v1/media/:fileId/subtitles/:track', { schema: { params: Type.Object({ fileId: IdStr, track: Type.String({ pattern: '^\\d{1,3}\\.vtt$' }) }), querystring: signed } }, async (request, reply) => {
    const track = Number.parseInt(request.params.track, 10)
    const { file, linkExpiresAtSeconds } = await requireDownloadable(deps, request.params.fileId, request.query, `media:sub:${track}`)
    return sendVtt(reply, await embeddedSubtitle(deps, file.gcid, track), linkExpiresAtSeconds)
  })

  app.get('/drive/v1/media/:fileId/subtitle-files/:subtitle', { schema: { params: Type.Object({ fileId: IdStr, subtitle: Type.String({ maxLength: 140, pattern: '^[^\\u0000]+\\.vtt$' }) }), querystring: signed } }, async (request, reply) => {
    const subtitleId = request.params.subtitle.slice(0, -'.vtt'.length)
    const { file, linkExpiresAtSeconds } = await requireDownloadable(deps, request.params.fileId, request.query, `media:subfile:${subtitleId}`)
    return sendVtt(reply, await subtitleFileVtt(deps, file, subtitleId), linkExpiresAtSeconds)
  })

  const byId = { params: Type.Object({ id: IdStr }) }
  app.get('/drive/v1/files/:id/subtitles', { preHandler: authenticate, schema: byId }, async (request) => listSubtitles(deps, callerOf(request), request.params.id))
  app.get('/drive/v1/files/:id/playback', { preHandler: authenticate, schema: byId }, async (request) => getPlayback(deps, callerOf(request), request.params.id))
  app.put(
    '/drive/v1/files/:id/playback',
    // The body's numbers are checked by savePlayback, which answers the catalogue's invalid_argument for anything else.
    { preHandler: authenticate, schema: { ...byId, body: Loose({ position_seconds: Type.Unknown(), duration_seconds: Type.Optional(Type.Unknown()) }) } },
    async (request) => savePlayback(deps, callerOf(request), request.params.id, request.body as { position_seconds: number; duration_seconds?: number }),
  )
}
