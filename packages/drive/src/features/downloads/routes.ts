import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { IdStr, Loose, OptStr } from '../../http/schemas.js'
import { contentDisposition } from '../../http/content-disposition.js'
import { meterDownload, requireDownloadable } from '../../domain/index.js'
import { sendBlob } from '../../http/send-blob.js'
import { CONTENT_SECURITY_POLICY, contentTypeOf } from '../../http/content-headers.js'

const params = Type.Object({ fileId: IdStr, name: Type.Optional(Type.String({ maxLength: 1024 })) })
const querystring = Loose({ e: OptStr(16), s: OptStr(128), disposition: OptStr(16) })

/**
 * `GET|HEAD /drive/v1/content/:fileId[/:name]?e=&s=`: a file's content through its signed link
 * (drive.md `web_content_link`), without the bearer, so `<video>` elements and download managers
 * can use it. One byte range per request (206), If-Range, If-None-Match, ETag from the GCID, and
 * the content streamed from the blob store, never held in memory.
 */
export async function downloadRoutes(base: FastifyInstance, { deps }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  const handler = async (request: FastifyRequest<{ Params: { fileId: string }; Querystring: { e?: string; s?: string; disposition?: string } }>, reply: FastifyReply) => {
    const { file, linkExpiresAtSeconds } = await requireDownloadable(deps, request.params.fileId, request.query)
    reply.header('content-disposition', contentDisposition(request.query.disposition === 'inline' ? 'inline' : 'attachment', file.name))
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY)
    const meter = (bytes: number) => meterDownload(deps, file.user_id, bytes)
    return sendBlob(deps, request, reply, { gcid: file.gcid, size: file.size, etag: `"${file.gcid}"`, contentType: contentTypeOf(file.mime_type), lastModifiedMs: file.modified_at, linkExpiresAtSeconds, meter })
  }
  const route = { schema: { params, querystring } }
  app.route({ method: ['GET', 'HEAD'], url: '/drive/v1/content/:fileId', ...route, handler })
  app.route({ method: ['GET', 'HEAD'], url: '/drive/v1/content/:fileId/:name', ...route, handler })
}
