import { AppError, DriveErrors } from '@cumulus/protocol'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { IdStr, Loose, OptStr } from '../../http/schemas.js'
import { requireDownloadable } from '../../domain/index.js'
import { isThumbnailCategory } from '../../domain/index.js'
import { ensureThumbnail } from './thumbnails.js'

/**
 * `GET /drive/v1/thumbnails/:fileId?e=&s=`: a file's thumbnail through its signed `thumbnail_link`
 * (no bearer, for `<img>`). WebP, cached by the browser until the link expires; the ETag is the
 * content's, so a new link for the same content revalidates to 304.
 */
export async function thumbnailRoutes(base: FastifyInstance, { deps }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  app.get(
    '/drive/v1/thumbnails/:fileId',
    { schema: { params: Type.Object({ fileId: IdStr }), querystring: Loose({ e: OptStr(16), s: OptStr(128) }) } },
    async (request, reply) => {
      const { file, linkExpiresAtSeconds } = await requireDownloadable(deps, request.params.fileId, request.query, 'thumbnail')
      const noThumbnail = () => new AppError(DriveErrors.file_not_found, { description: 'this file has no thumbnail', metadata: { id: file.id } })
      if (!isThumbnailCategory(file.file_category)) throw noThumbnail()
      const etag = `"${file.gcid}-t"`
      const maxAge = Math.max(0, linkExpiresAtSeconds - Math.floor(deps.clock.nowMs() / 1000))
      reply.header('etag', etag).header('cache-control', `private, max-age=${maxAge}`).header('x-content-type-options', 'nosniff')
      if (request.headers['if-none-match'] === etag) return reply.code(304).send()
      const thumbnail = await ensureThumbnail(deps, file.gcid, file.file_category)
      if (!thumbnail?.data) throw noThumbnail()
      return reply.type('image/webp').send(Buffer.from(thumbnail.data))
    },
  )
}
