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
export function captchaGuard(deps: IdentityDeps, options: { concretePath?: boolean } = {}): preHandlerAsyncHookHandler {
  return async (request) => {
    if (deps.config.captcha.mode === 'off') return
    const client = await deps.clients.require(clientIdOf(request))
    const token = captchaTokenOf(request)
    if (token === undefined) throw new AppError(AccountErrors.captcha_required, { description: `a captcha token is required (${HEADERS.captchaToken})` })
    // The route pattern, not the raw URL: the query string and repeated slashes are not part of the action.
    // A route with a parameter (DELETE /v1/user/provider/{id}) asks for a token for the concrete
    // path, as clients compute it (`METHOD:/path`): one for unbinding Google cannot unbind GitHub.
    const path = options.concretePath ? concretePathOf(request.url) : (request.routeOptions.url ?? request.url.split('?')[0] ?? '')
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

/** The request's path as a client names it: no query, repeated slashes and a trailing slash dropped, %-escapes decoded. */
function concretePathOf(url: string): string {
  const raw = (url.split('?')[0] ?? '').replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1')
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}
