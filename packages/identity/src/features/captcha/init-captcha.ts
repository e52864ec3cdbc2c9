import { AccountErrors, AppError, CAPTCHA_REJECT, type CaptchaInitReply } from '@cumulus/protocol'
import type { IdentityDeps } from '../../deps.js'
import { targetBindings, targetIdentifiers } from './captcha-target.js'
import { issueCaptchaToken, normalizeAction } from './captcha-token.js'
import { challengeUrl, issueChallenge } from './challenge.js'
import { assessCaptchaRisk, captchaInitKey } from './risk.js'

export interface InitCaptchaInput {
  clientId: string | undefined
  action: string
  /** From the body's device_id, else `x-device-id`; '' when neither names one. */
  deviceId: string
  ip: string
  /** Any JSON; only the identity fields are read (see metaIdentifiers). */
  meta?: unknown
}

/**
 * `POST /v1/shield/captcha/init`: a captcha token when the risk is low, else the URL of the
 * proof-of-work page. The body's previous `captcha_token` and `redirect_uri` are accepted but not
 * used: a previous token proves nothing about this call, and the caller adds `redirect_uri` to
 * the challenge URL itself, where the page checks it against the client's registered URIs.
 */
export async function initCaptcha(deps: Pick<IdentityDeps, 'config' | 'clients' | 'clock' | 'counters' | 'hmacKey'>, input: InitCaptchaInput): Promise<CaptchaInitReply> {
  const client = await deps.clients.require(input.clientId)
  // The token (and a challenge's token) names the account or address `meta` names, so it is
  // good only for a call acting on that target (identity.md: meta "holds the identity being acted on").
  const target = {
    clientId: client.clientId,
    deviceId: input.deviceId,
    action: normalizeAction(input.action),
    targetBindings: targetBindings(deps, targetIdentifiers(input.meta)),
  }
  const { risk, powBits } = await assessCaptchaRisk(deps, { clientId: target.clientId, deviceId: target.deviceId, action: target.action, ip: input.ip, meta: input.meta })
  if (risk === 'reject') {
    const { ttlSeconds } = await deps.counters.get(captchaInitKey(input.ip))
    throw new AppError(AccountErrors.captcha_invalid, {
      description: 'too many captcha requests from this address',
      detailReason: CAPTCHA_REJECT,
      retryAfterSeconds: Math.max(1, ttlSeconds),
    })
  }
  if (risk === 'challenge') {
    const { challenge, expiresIn } = issueChallenge(deps, { ...target, bits: powBits })
    return { url: challengeUrl(deps, challenge), expires_in: expiresIn }
  }
  const { captchaToken, expiresIn } = issueCaptchaToken(deps, target)
  return { captcha_token: captchaToken, expires_in: expiresIn }
}
