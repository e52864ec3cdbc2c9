import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AppError, GenericErrors } from '@cumulus/protocol'
import type { FastifyInstance } from 'fastify'
import type { IdentityDeps } from '../../deps.js'
import { callerContext, clientIdOf, deviceOf } from '../../http/request-context.js'
import { Body, ClientFields, OptStr, Str } from '../../http/schemas.js'
import { captchaGuard } from '../captcha/guard.js'
import { signInWithCode, signInWithPassword } from './sign-in.js'

const SignInBody = Body({
  ...ClientFields,
  username: Str(254),
  password: OptStr(1024),
  verification_code: OptStr(16),
  verification_token: OptStr(128),
  captcha_token: OptStr(2048),
})

export async function signInRoutes(base: FastifyInstance, { deps }: { deps: IdentityDeps }) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  // The captcha token is single-use here: one solved challenge buys one guess.
  app.post('/v1/auth/signin', { schema: { body: SignInBody }, preHandler: captchaGuard(deps) }, async (request) => {
    const body = request.body
    const client = await deps.clients.require(clientIdOf(request), { secret: body.client_secret, checkSecret: true })
    const caller = callerContext(request)
    if (body.password !== undefined) {
      return signInWithPassword(deps, { username: body.username, password: body.password, client, ip: caller.ip, ...deviceOf(caller) })
    }
    if (body.verification_token !== undefined) {
      return signInWithCode(deps, { username: body.username, verificationToken: body.verification_token, client, ...deviceOf(caller) })
    }
    throw new AppError(GenericErrors.invalid_argument, { description: 'give a password, or a verification_token from a verified code', metadata: { field: 'password' } })
  })
}
