import { AppError, type CreateFileReply, FOLDER_KIND, GenericErrors, type Locale, negotiateLocale } from '@cumulus/protocol'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { Caller } from '../../deps.js'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { IdStr, Loose, OptStr, QueryBool } from '../../http/schemas.js'
import { createFolder, getFile, updateFile } from './files.js'
import { listFiles } from './list.js'

/** Empty query values mean absent (drive.md). */
const present = (value: string | undefined) => (value === undefined || value === '' ? undefined : value)

/**
 * What `POST /drive/v1/files` creates besides folders. The uploads and tasks features own them;
 * app.ts passes them in, so this feature does not import those.
 */
export interface FileCreators {
  /** `upload_type: UPLOAD_TYPE_RESUMABLE` (or none): a file to upload into. */
  upload(caller: Caller, body: Record<string, unknown>): Promise<CreateFileReply>
  /** `upload_type: UPLOAD_TYPE_URL`: an offline download task; `locale` names a download folder it creates. */
  offline(caller: Caller, body: Record<string, unknown>, locale: Locale): Promise<CreateFileReply>
}

export interface FileRoutesOptions extends DriveRouteOptions {
  creators: FileCreators
}

export async function fileRoutes(base: FastifyInstance, { deps, authenticate, callerOf, creators }: FileRoutesOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.get(
    '/drive/v1/files',
    { preHandler: authenticate, schema: { querystring: Loose({ parent_id: OptStr(128), limit: OptStr(16), page_token: OptStr(1024), filters: OptStr(8192), order_by: OptStr(64), direction: OptStr(8) }) } },
    async (request) => {
      const q = request.query
      return listFiles(deps, callerOf(request), {
        parentId: present(q.parent_id),
        limit: present(q.limit),
        pageToken: present(q.page_token),
        filters: present(q.filters),
        orderBy: present(q.order_by),
        direction: present(q.direction),
      })
    },
  )

  app.get('/drive/v1/files/:id', { preHandler: authenticate, schema: { params: Type.Object({ id: IdStr }) } }, async (request) => getFile(deps, callerOf(request), request.params.id))

  app.post('/drive/v1/files', { preHandler: authenticate, schema: { body: Loose({ kind: OptStr(32), name: Type.Optional(Type.Union([Type.String({ maxLength: 4096 }), Type.Null()])), parent_id: Type.Optional(Type.Union([Type.String({ maxLength: 128 }), Type.Null()])), upload_type: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])) }) } }, async (request) => {
    const body = request.body
    const caller = callerOf(request)
    if (body.upload_type === 'UPLOAD_TYPE_URL') return creators.offline(caller, body, negotiateLocale(request.headers['accept-language']))
    if (body.kind === FOLDER_KIND) {
      const file = await createFolder(deps, caller, { name: body.name, parentId: body.parent_id })
      return { file, task: null, upload_type: '' }
    }
    if (body.kind === 'drive#file' || body.kind === undefined) return creators.upload(caller, body)
    throw new AppError(GenericErrors.invalid_argument, { description: 'kind must be drive#folder or drive#file', metadata: { field: 'kind' } })
  })

  app.patch(
    '/drive/v1/files/:id',
    { preHandler: authenticate, schema: { params: Type.Object({ id: IdStr }), body: Loose({ name: Type.Optional(Type.Union([Type.String({ maxLength: 4096 }), Type.Null()])), starred: Type.Optional(Type.Union([QueryBool, Type.Null()])) }) } },
    async (request) => {
      const { name, starred } = request.body
      return updateFile(deps, callerOf(request), request.params.id, {
        name: name === null ? undefined : name,
        starred: starred === null || starred === undefined ? undefined : starred === true || starred === 'true',
      })
    },
  )
}
