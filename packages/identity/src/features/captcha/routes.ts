import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { IdentityDeps } from '../../deps.js'
import { callerContext, clientIdOf, normalizeDeviceId } from '../../http/request-context.js'
import { CHALLENGE_PAGE_PATH, CHALLENGE_VERIFY_PATH, findLiveChallenge } from './challenge.js'
import { renderChallengePage } from './challenge-page.js'
import { initCaptcha } from './init-captcha.js'
import { requireRedirectTarget } from './redirect-target.js'
import { CaptchaInitBody, CaptchaInitReplySchema, ChallengePageQuery, ChallengeVerifyBody, ChallengeVerifyReplySchema } from './schema.js'
import { verifyChallenge } from './verify-challenge.js'

export async function captchaRoutes(base: FastifyInstance, { deps }: { deps: IdentityDeps }) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.post('/v1/shield/captcha/init', { schema: { body: CaptchaInitBody, response: { 200: CaptchaInitReplySchema } } }, async (request) => {
    const caller = callerContext(request)
    // Normalised like the x-device-id header, so a token issued for a long body device_id
    // still matches the header the protected call sends.
    const bodyDevice = normalizeDeviceId(request.body.device_id)
    return initCaptcha(deps, {
      clientId: clientIdOf(request),
      action: request.body.action,
      deviceId: bodyDevice || caller.deviceId,
      ip: caller.ip,
      meta: request.body.meta,
    })
  })

  app.get(CHALLENGE_PAGE_PATH, { schema: { querystring: ChallengePageQuery } }, async (request, reply) => {
    const { challenge, redirect_uri, state, locale } = request.query
    // A redirect_uri the challenge's client has not registered is refused here, in the contract's
    // error shape, rather than carried into a page that would send a token to it.
    const claims = redirect_uri ? findLiveChallenge(deps, challenge) : null
    const client = claims ? await deps.clients.find(claims.clientId) : null
    if (client) requireRedirectTarget(client, redirect_uri ?? '')
    const page = renderChallengePage(deps, { challenge, redirectUri: redirect_uri ?? '', state: state ?? '', locale, acceptLanguage: request.headers['accept-language'] })
    return reply.headers(page.headers).type('text/html; charset=utf-8').send(page.html)
  })

  app.post(CHALLENGE_VERIFY_PATH, { schema: { body: ChallengeVerifyBody, response: { 200: ChallengeVerifyReplySchema } } }, async (request) => {
    const { challenge, nonce, redirect_uri, state } = request.body
    return verifyChallenge(deps, { challenge, nonce, redirectUri: redirect_uri ?? '', state: state ?? '' })
  })
}
