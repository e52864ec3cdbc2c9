import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { IdentityDeps } from '../../deps.js'
import { authOf, authenticated, authenticatedFirstParty } from '../../http/authenticate.js'
import { callerContext } from '../../http/request-context.js'
import { Body, OptStr, Str } from '../../http/schemas.js'
import { cleanName } from '../sign-up/sign-up.js'
import { changeContact, changePassword, sudo } from './credentials.js'
import { getProfile, queryUsers, updateProfile } from './profile.js'
import { UserProfileReply } from './schema.js'
import { vipIconSvg } from './vip-icon.js'

export async function userRoutes(base: FastifyInstance, { deps }: { deps: IdentityDeps }) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  // The account's own calls: a third-party token needs the `user` scope (OpenID Connect apps read /v1/auth/userinfo).
  const auth = authenticated(deps, { scope: 'user' })
  // What could hand the account to someone else (its password, its address, a sudo token) only
  // the product's own apps may do: a third-party app with `user` could otherwise move the e-mail
  // to one it controls and reset the password.
  const firstParty = authenticatedFirstParty(deps)

  app.get('/v1/user/me', { preHandler: auth, schema: { response: { 200: UserProfileReply } } }, async (request) => getProfile(deps, authOf(request)))

  app.patch('/v1/user/profile', { preHandler: auth, schema: { body: Body({ name: OptStr(256), picture: OptStr(4096) }), response: { 200: UserProfileReply } } }, async (request) =>
    updateProfile(deps, authOf(request), request.body, cleanName),
  )

  app.patch('/v1/user/password', { preHandler: firstParty, schema: { body: Body({ old_password: OptStr(1024), sudo_token: OptStr(256), password: Str(1024) }) } }, async (request) =>
    changePassword(deps, authOf(request), callerContext(request), { oldPassword: request.body.old_password, sudoToken: request.body.sudo_token, password: request.body.password }),
  )

  app.patch('/v1/user/contact', { preHandler: firstParty, schema: { body: Body({ email: OptStr(254), phone_number: OptStr(32), verification_token: Str(128) }) } }, async (request) =>
    changeContact(deps, authOf(request), { email: request.body.email, phoneNumber: request.body.phone_number, verificationToken: request.body.verification_token }),
  )

  app.post('/v1/user/sudo', { preHandler: firstParty, schema: { body: Body({ password: Str(1024) }) } }, async (request) => sudo(deps, authOf(request), callerContext(request), request.body.password))

  app.get('/v1/user/query', { preHandler: auth, schema: { querystring: Body({ ids: Type.Union([Str(8192), Type.Array(Str(8192), { maxItems: 100 })]) }) } }, async (request) =>
    queryUsers(deps, request.query.ids),
  )

  app.get('/v1/assets/vip-:size.svg', { schema: { params: Type.Object({ size: Type.Union([Type.Literal('large'), Type.Literal('small')]) }) } }, async (request, reply) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(vipIconSvg(request.params.size)),
  )
}
