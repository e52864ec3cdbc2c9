import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, DriveErrors, SHARE_MAX_ITEMS, negotiateLocale } from '@cumulus/protocol'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { IdStr, Int64, Loose, OptStr, QueryBool, Str } from '../../http/schemas.js'
import { contentDisposition } from '../../http/content-disposition.js'
import { sendBlob } from '../../http/send-blob.js'
import { CONTENT_SECURITY_POLICY, contentTypeOf } from '../../http/content-headers.js'
import { meterDownload, requireDownloadable, requireOpenShareItem } from '../../domain/index.js'
import { SHARE_DELETE_MAX_IDS, createShare, deleteShares, listShares } from './owner.js'
import { restoreShare } from './restore.js'
import { shareDetail, shareFileInfo, shareInfo } from './views.js'

const localeOf = (request: FastifyRequest) => negotiateLocale(request.headers['accept-language'])

/** The pass code and token as query values: capped, so nothing long is hashed or compared. */
const access = { share_id: Str(128), pass_code: OptStr(64), pass_code_token: OptStr(128), page_token: OptStr(8192), limit: Type.Optional(Int64) }


/** Shares (issue 17, drive.md "Shares"): the owner's calls behind the bearer, the visitor's without it. */
export async function shareRoutes(base: FastifyInstance, { deps, authenticate, callerOf }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.post(
    '/drive/v1/share',
    {
      preHandler: authenticate,
      schema: {
        body: Loose({
          file_ids: Type.Array(IdStr, { minItems: 1, maxItems: SHARE_MAX_ITEMS }),
          share_to: Type.Optional(Type.Union([Type.Literal('publiclink'), Type.Literal('encryptedlink')])),
          pass_code_option: Type.Optional(Type.Union([Type.Literal('NOT_REQUIRED'), Type.Literal('REQUIRED')])),
          expiration_days: Type.Optional(Type.Union([Type.Integer({ minimum: -1, maximum: 100_000 }), Str(8)])),
          custom_pass_code: Type.Optional(Type.Union([Str(64), Type.Null()])),
          title: Type.Optional(Type.Union([Str(1024), Type.Null()])),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body
      // The reply holds the pass code.
      reply.header('cache-control', 'no-store')
      return createShare(deps, callerOf(request), {
        fileIds: body.file_ids,
        shareTo: body.share_to,
        passCodeOption: body.pass_code_option,
        expirationDays: body.expiration_days,
        customPassCode: body.custom_pass_code ?? undefined,
        title: body.title ?? undefined,
        locale: localeOf(request),
      })
    },
  )

  app.get('/drive/v1/share/list', { preHandler: authenticate, schema: { querystring: Loose({ limit: Type.Optional(Int64), page_token: OptStr(1024) }) } }, async (request, reply) => {
    // The reply holds pass codes.
    reply.header('cache-control', 'no-store')
    return listShares(deps, callerOf(request), { limit: request.query.limit, pageToken: request.query.page_token || undefined, locale: localeOf(request) })
  })

  // The path carries a literal colon; "::" is one ":" to find-my-way.
  app.post('/drive/v1/share::batchDelete', { preHandler: authenticate, schema: { body: Loose({ ids: Type.Array(IdStr, { maxItems: SHARE_DELETE_MAX_IDS }) }) } }, async (request) =>
    deleteShares(deps, callerOf(request), request.body.ids),
  )

  // ---- without an account ----
  // Visitors' replies carry links that expire and pass-code tokens: no cache keeps them.
  type VisitorQuery = { share_id: string; pass_code?: string; pass_code_token?: string; page_token?: string; limit?: string | number }
  const visitor = (request: FastifyRequest, q: VisitorQuery, reply: FastifyReply) => {
    reply.header('cache-control', 'private, no-store')
    return { shareId: q.share_id, passCode: q.pass_code, passCodeToken: q.pass_code_token || undefined, pageToken: q.page_token || undefined, limit: q.limit, ip: request.ip, locale: localeOf(request) }
  }

  app.get('/drive/v1/share', { schema: { querystring: Loose(access) } }, async (request, reply) => shareInfo(deps, visitor(request, request.query, reply)))

  app.get('/drive/v1/share/detail', { schema: { querystring: Loose({ ...access, parent_id: OptStr(128) }) } }, async (request, reply) =>
    shareDetail(deps, { ...visitor(request, request.query, reply), parentId: request.query.parent_id ?? '' }),
  )

  app.get('/drive/v1/share/file_info', { schema: { querystring: Loose({ ...access, file_id: IdStr }) } }, async (request, reply) =>
    shareFileInfo(deps, { ...visitor(request, request.query, reply), fileId: request.query.file_id }),
  )

  app.post(
    '/drive/v1/share/restore',
    {
      preHandler: authenticate,
      schema: {
        body: Loose({
          share_id: Str(128),
          pass_code_token: Type.Optional(Type.Union([Str(128), Type.Null()])),
          file_ids: Type.Optional(Type.Union([Type.Array(IdStr, { maxItems: SHARE_MAX_ITEMS }), Type.Null()])),
          ancestor_ids: Type.Optional(Type.Union([Type.Array(IdStr, { maxItems: 1000 }), Type.Null()])),
          parent_id: Type.Optional(Type.Union([Str(128), Type.Null()])),
          specify_parent_id: Type.Optional(Type.Union([QueryBool, Type.Null()])),
        }),
      },
    },
    async (request) => {
      const body = request.body
      const specify = body.specify_parent_id === true || body.specify_parent_id === 'true'
      return restoreShare(deps, callerOf(request), {
        shareId: body.share_id,
        passCodeToken: body.pass_code_token ?? '',
        fileIds: body.file_ids ?? [],
        parentId: body.parent_id ?? '',
        specifyParentId: specify,
        ip: request.ip,
        locale: localeOf(request),
      })
    },
  )

  // A file's content through the link a share gave: checked against the share on every request, so
  // a cancelled or expired share, or an item that left it, serves nothing more at once.
  const params = Type.Object({ shareId: IdStr, fileId: IdStr, name: Type.Optional(Type.String({ maxLength: 1024 })) })
  const querystring = Loose({ e: OptStr(16), s: OptStr(128), disposition: OptStr(16) })
  const content = async (request: FastifyRequest<{ Params: { shareId: string; fileId: string }; Querystring: { e?: string; s?: string; disposition?: string } }>, reply: FastifyReply) => {
    const { shareId, fileId } = request.params
    const { file, linkExpiresAtSeconds } = await requireDownloadable(deps, fileId, request.query, `share:${shareId}`)
    await requireOpenShareItem(deps, shareId, fileId)
    // A download is a request for the whole file, or for all of it from its first byte (not a
    // player's or a download manager's later or partial range), and not shown inline: a preview
    // or a play (the share's video Original carries disposition=inline) is not a download.
    const range = request.headers.range
    if (request.method === 'GET' && request.query.disposition !== 'inline' && (range === undefined || /^bytes=0-$/.test(range.trim()))) {
      await deps.db.updateTable('drive_shares').set((eb) => ({ download_count: eb('download_count', '+', 1) })).where('id', '=', shareId).execute()
    }
    reply.header('content-disposition', contentDisposition(request.query.disposition === 'inline' ? 'inline' : 'attachment', file.name))
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY)
    // Visitors spend the share's own traffic budget, never the owner's (domain/traffic.ts).
    const meter = (bytes: number) => meterDownload(deps, file.user_id, bytes, { throughShare: true })
    // Cached copies are checked again: a cancelled share must not go on serving from a browser's cache.
    return sendBlob(deps, request, reply, { gcid: file.gcid, size: file.size, etag: `"${file.gcid}"`, contentType: contentTypeOf(file.mime_type), lastModifiedMs: file.modified_at, linkExpiresAtSeconds, meter, revalidate: true })
  }
  const route = { schema: { params, querystring } }
  app.route({ method: ['GET', 'HEAD'], url: '/drive/v1/share/content/:shareId/:fileId', ...route, handler: content })
  app.route({ method: ['GET', 'HEAD'], url: '/drive/v1/share/content/:shareId/:fileId/:name', ...route, handler: content })
}
