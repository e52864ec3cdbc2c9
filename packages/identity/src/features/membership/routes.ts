import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { IdentityDeps } from '../../deps.js'
import { authOf, authenticated } from '../../http/authenticate.js'
import { callerContext } from '../../http/request-context.js'
import { Body, Str } from '../../http/schemas.js'
import { redeemActivationCode } from './activation-codes.js'
import { inviteCode } from './invites.js'

/** The membership calls identity answers under drive.md's `/vip/v1/` paths: it owns the membership. */
export async function membershipRoutes(base: FastifyInstance, { deps }: { deps: IdentityDeps }) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  // Membership belongs to the account: a third-party token needs the `user` scope.
  const auth = authenticated(deps, { scope: 'user' })

  app.post(
    '/vip/v1/order/activation-code',
    { preHandler: auth, schema: { body: Body({ activation_code: Str(64), data: Type.Optional(Type.Object({}, { additionalProperties: true })) }) } },
    async (request) => redeemActivationCode(deps, authOf(request), callerContext(request), request.body.activation_code),
  )

  app.get('/vip/v1/activity/inviteCode', { preHandler: auth }, async (request) => inviteCode(deps, authOf(request)))
}
