import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { IdentityDeps } from '../../deps.js'
import { callerContext, clientIdOf, deviceOf } from '../../http/request-context.js'
import { Body, ClientFields, OptStr, Str } from '../../http/schemas.js'
import { captchaGuard } from '../captcha/guard.js'
import { signUp, signUpAnonymously } from './sign-up.js'

const SignUpBody = Body({
  ...ClientFields,
  email: OptStr(254),
  phone_number: OptStr(32),
  verification_code: OptStr(16),
  verification_token: Str(128),
  password: OptStr(1024),
  name: OptStr(256),
  /** Our extension: another account's invite code (GET /vip/v1/activity/inviteCode). */
  invite_code: OptStr(32),
})

export async function signUpRoutes(base: FastifyInstance, { deps }: { deps: IdentityDeps }) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.post('/v1/auth/signup', { schema: { body: SignUpBody }, preHandler: captchaGuard(deps) }, async (request) => {
    const body = request.body
    const client = await deps.clients.require(clientIdOf(request), { secret: body.client_secret, checkSecret: true })
    return signUp(deps, {
      email: body.email,
      phoneNumber: body.phone_number,
      verificationToken: body.verification_token,
      password: body.password,
      name: body.name,
      inviteCode: body.invite_code,
      client,
      ...deviceOf(callerContext(request)),
    })
  })

  app.post('/v1/auth/signup/anonymously', { schema: { body: Body(ClientFields) } }, async (request) => {
    const client = await deps.clients.require(clientIdOf(request), { secret: request.body.client_secret, checkSecret: true })
    const caller = callerContext(request)
    return signUpAnonymously(deps, { client, ip: caller.ip, ...deviceOf(caller) })
  })
}
