import { AppError, DriveErrors } from '@cumulus/protocol'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { DownloadableFile } from '../../domain/index.js'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { IdStr, Loose, OptStr } from '../../http/schemas.js'
import { isThumbnailCategory, requireDownloadable, requireOpenShareItem } from '../../domain/index.js'
import { ensureThumbnail } from './thumbnails.js'

/**
 * `GET /drive/v1/thumbnails/:fileId?e=&s=`: a file's thumbnail through its signed `thumbnail_link`
 * (no bearer, for `<img>`). WebP, cached by the browser until the link expires; the ETag is the
 * content's, so a new link for the same content revalidates to 304.
 *
 * `GET /drive/v1/share/thumbnails/:shareId/:fileId?e=&s=`: the same through a share's link, checked
 * against the share on every request (domain/shares.ts) and revalidated by browsers each time, so a
 * cancelled share's pictures stop at once too.
 */
export async function thumbnailRoutes(base: FastifyInstance, { deps }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  const querystring = Loose({ e: OptStr(16), s: OptStr(128) })

  async function sendThumbnail(reply: FastifyReply, ifNoneMatch: string | undefined, { file, linkExpiresAtSeconds }: DownloadableFile, cacheControl?: string) {
    const noThumbnail = () => new AppError(DriveErrors.file_not_found, { description: 'this file has no thumbnail', metadata: { id: file.id } })
    if (!isThumbnailCategory(file.file_category)) throw noThumbnail()
    const etag = `"${file.gcid}-t"`
    const maxAge = Math.max(0, linkExpiresAtSeconds - Math.floor(deps.clock.nowMs() / 1000))
    reply.header('etag', etag).header('cache-control', cacheControl ?? `private, max-age=${maxAge}`).header('x-content-type-options', 'nosniff')
    if (ifNoneMatch === etag) return reply.code(304).send()
    const thumbnail = await ensureThumbnail(deps, file.gcid, file.file_category)
    if (!thumbnail?.data) throw noThumbnail()
    return reply.type('image/webp').send(Buffer.from(thumbnail.data))
  }

  app.get('/drive/v1/thumbnails/:fileId', { schema: { params: Type.Object({ fileId: IdStr }), querystring } }, async (request, reply) =>
    sendThumbnail(reply, request.headers['if-none-match'], await requireDownloadable(deps, request.params.fileId, request.query, 'thumbnail')),
  )

  app.get('/drive/v1/share/thumbnails/:shareId/:fileId', { schema: { params: Type.Object({ shareId: IdStr, fileId: IdStr }), querystring } }, async (request, reply) => {
    const { shareId, fileId } = request.params
    const downloadable = await requireDownloadable(deps, fileId, request.query, `share-thumbnail:${shareId}`)
    await requireOpenShareItem(deps, shareId, fileId)
    return sendThumbnail(reply, request.headers['if-none-match'], downloadable, 'private, no-cache')
  })
}
