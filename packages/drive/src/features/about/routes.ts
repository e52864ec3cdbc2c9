import type { FastifyInstance } from 'fastify'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { about, vipPrivilege } from './about.js'

export async function aboutRoutes(app: FastifyInstance, { deps, authenticate, callerOf }: DriveRouteOptions) {
  app.get('/drive/v1/about', { preHandler: authenticate }, async (request) => about(deps, callerOf(request)))
  app.get('/drive/v1/privilege/vip', { preHandler: authenticate }, async (request) => vipPrivilege(deps, callerOf(request)))
}
