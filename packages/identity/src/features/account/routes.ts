import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { IdentityDeps } from '../../deps.js'
import { authOf, authenticatedFirstParty } from '../../http/authenticate.js'
import { clientIdOf } from '../../http/request-context.js'
import { Body, ClientFields, OptStr, Str } from '../../http/schemas.js'
import { captchaGuard } from '../captcha/guard.js'
import { requestAccountDeletion, resetPassword } from './account.js'

export async function accountRoutes(base: FastifyInstance, { deps }: { deps: IdentityDeps }) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.post(
    '/v1/auth/reset',
    { schema: { body: Body({ ...ClientFields, email: OptStr(254), phone_number: OptStr(32), verification_token: Str(128), password: Str(1024) }) }, preHandler: captchaGuard(deps) },
    async (request) => {
      await deps.clients.require(clientIdOf(request))
      const body = request.body
      return resetPassword(deps, { email: body.email, phoneNumber: body.phone_number, verificationToken: body.verification_token, password: body.password })
    },
  )

  app.delete('/v1/user/me', { preHandler: authenticatedFirstParty(deps), schema: { querystring: Body({ sudo_token: Str(256) }) } }, async (request) =>
    requestAccountDeletion(deps, authOf(request), request.query.sudo_token),
  )
}
