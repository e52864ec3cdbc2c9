import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { Loose, OptStr } from '../../http/schemas.js'
import { associate, searchFiles } from './search.js'

/** Empty query values mean absent (drive.md). */
const present = (value: string | undefined) => (value === undefined || value === '' ? undefined : value)

/** Search over the caller's drive (issue 15, drive.md "Search", decision 029). */
export async function searchRoutes(base: FastifyInstance, { deps, authenticate, callerOf }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.get(
    '/drive/v1/search',
    { preHandler: authenticate, schema: { querystring: Loose({ q: OptStr(1024), limit: OptStr(16), page_token: OptStr(1024), filters: OptStr(4096) }) } },
    async (request) => {
      const q = request.query
      return searchFiles(deps, callerOf(request), { q: q.q, limit: present(q.limit), pageToken: present(q.page_token), filters: present(q.filters) })
    },
  )

  app.get(
    '/drive/v1/search/associate',
    { preHandler: authenticate, schema: { querystring: Loose({ q: OptStr(1024), limit: OptStr(16) }) } },
    async (request) => associate(deps, callerOf(request), { q: request.query.q, limit: present(request.query.limit) }),
  )
}
