import { AccountErrors, AppError, HEADERS } from '@cumulus/protocol'
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import type { IdentityDeps } from '../../deps.js'
import { callerContext, clientIdOf } from '../../http/request-context.js'
import { targetIdentifiers } from './captcha-target.js'
import { verifyCaptchaToken } from './captcha-token.js'

/** The token from `x-captcha-token`, else the body's `captcha_token` (identity.md "Captcha"). */
export function captchaTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers[HEADERS.captchaToken]
  if (typeof header === 'string' && header.trim() !== '') return header.trim()
  const body = request.body
  if (body && typeof body === 'object') {
    const field = (body as Record<string, unknown>)['captcha_token']
    if (typeof field === 'string' && field.trim() !== '') return field.trim()
  }
  return undefined
}

/**
 * A pre-handler for the calls that require a captcha token (sign-in, sign-up, verification,
 * password reset, provider unbind). The token must be live, issued to this client, to the device
 * the call names (if it names one), for this call's `METHOD:/path` and for the account or address
 * the body names (`username`, `email` or `phone_number`, as captcha init's `meta` named it). It is
 * spent here, atomically: one token authorises one call. Missing → captcha_required (4001);
 * anything wrong with it → captcha_invalid (4002). An unknown or missing client fails first, with
 * the ClientRegistry's error. With captcha mode `off` it checks nothing.
 */
export function captchaGuard(deps: IdentityDeps): preHandlerAsyncHookHandler {
  return async (request) => {
    if (deps.config.captcha.mode === 'off') return
    const client = deps.clients.require(clientIdOf(request))
    const token = captchaTokenOf(request)
    if (token === undefined) throw new AppError(AccountErrors.captcha_required, { description: `a captcha token is required (${HEADERS.captchaToken})` })
    // The route pattern, not the raw URL: the query string and repeated slashes are not part of the action.
    const path = request.routeOptions.url ?? request.url.split('?')[0] ?? ''
    await verifyCaptchaToken(deps, {
      token,
      clientId: client.clientId,
      deviceId: callerContext(request).deviceId,
      action: `${request.method}:${path}`,
      // Runs after body validation, so the fields are the schema's strings.
      targets: targetIdentifiers(request.body),
      singleUse: true,
    })
  }
}
