import { type TypeBoxTypeProvider, Type } from '@fastify/type-provider-typebox'
import { VERIFICATION_PURPOSES, VERIFICATION_TARGETS, negotiateLocale, matchLocale } from '@cumulus/protocol'
import type { FastifyInstance } from 'fastify'
import type { IdentityDeps } from '../../deps.js'
import { bearerTokenOf } from '../../http/authenticate.js'
import { callerContext, clientIdOf } from '../../http/request-context.js'
import { Body, ClientFields, OptStr, Str } from '../../http/schemas.js'
import { captchaGuard } from '../captcha/guard.js'
import { requireAuth } from '../tokens/sessions.js'
import { sendVerification, verifyCode } from './verification.js'

const SendBody = Body({
  ...ClientFields,
  email: OptStr(254),
  phone_number: OptStr(32),
  target: Type.Optional(Type.Union(VERIFICATION_TARGETS.map((t) => Type.Literal(t)))),
  usage: Type.Optional(Type.Union(VERIFICATION_PURPOSES.map((p) => Type.Literal(p)))),
  locale: OptStr(35),
})

const VerifyBody = Body({ ...ClientFields, verification_id: Str(64), verification_code: Str(16) })

export async function verificationRoutes(base: FastifyInstance, { deps }: { deps: IdentityDeps }) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.post('/v1/auth/verification', { schema: { body: SendBody }, preHandler: captchaGuard(deps) }, async (request) => {
    const client = await deps.clients.require(clientIdOf(request))
    const bearer = bearerTokenOf(request)
    const body = request.body
    return sendVerification(deps, {
      email: body.email,
      phoneNumber: body.phone_number,
      target: body.target ?? 'ANY',
      usage: body.usage ?? 'DEFAULT',
      clientId: client.clientId,
      locale: matchLocale(body.locale) ?? negotiateLocale(request.headers['accept-language']),
      auth: bearer ? await requireAuth(deps, bearer) : null,
      ip: callerContext(request).ip,
    })
  })

  app.post('/v1/auth/verification/verify', { schema: { body: VerifyBody } }, async (request) => {
    const client = await deps.clients.require(clientIdOf(request))
    return verifyCode(deps, { verificationId: request.body.verification_id, code: request.body.verification_code, clientId: client.clientId })
  })
}
