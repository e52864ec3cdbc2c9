import { AccountErrors, AppError } from '@cumulus/protocol'
import type { IdentityDeps } from '../../deps.js'
import { issueCaptchaToken } from './captcha-token.js'
import { findLiveChallenge, isProofOfWork } from './challenge.js'
import { requireRedirectTarget, withCaptchaResult } from './redirect-target.js'

export interface VerifyChallengeInput {
  challenge: string
  nonce: string
  /** As given to the challenge page; '' for none. */
  redirectUri: string
  state: string
}

export interface VerifyChallengeReply {
  captcha_token: string
  expires_in: number
  state: string
  /** redirect_uri with the result in its query, or '' when there is none. */
  redirect_to: string
}

function invalid(description: string): AppError {
  return new AppError(AccountErrors.captcha_invalid, { description })
}

/**
 * `POST /captcha/challenge/verify`: checks the challenge's signature and expiry and the proof of
 * work, burns the challenge, and issues a captcha token for the client, device, action and target
 * the challenge was made for. Wrong, expired or reused → captcha_invalid (4002); a redirect_uri not
 * registered for the challenge's client → invalid_request (4121), before the challenge is burnt.
 */
export async function verifyChallenge(deps: Pick<IdentityDeps, 'config' | 'clients' | 'clock' | 'counters' | 'hmacKey'>, input: VerifyChallengeInput): Promise<VerifyChallengeReply> {
  const claims = findLiveChallenge(deps, input.challenge)
  if (!claims) throw invalid('challenge is malformed, badly signed or expired')
  if (!isProofOfWork(input.challenge, input.nonce, claims.bits)) throw invalid('nonce does not solve the challenge')
  const client = await deps.clients.find(claims.clientId)
  if (!client) throw invalid('the challenge names a client that is no longer registered')
  const target = requireRedirectTarget(client, input.redirectUri)
  // Burnt only once the work checks out, atomically: two tabs (or a replayed request) posting
  // the same solution get one token between them, so one solved challenge is worth one token.
  const remainingSeconds = Math.max(1, Math.ceil((claims.expiresAtSeconds * 1000 - deps.clock.nowMs()) / 1000))
  const { count } = await deps.counters.increment(`captcha:challenge:used:${claims.jti}`, remainingSeconds)
  if (count > 1) throw invalid('challenge was already used')
  const { captchaToken, expiresIn } = issueCaptchaToken(deps, {
    clientId: claims.clientId,
    deviceId: claims.deviceId,
    action: claims.action,
    targetBindings: claims.targetBindings,
  })
  return {
    captcha_token: captchaToken,
    expires_in: expiresIn,
    state: input.state,
    redirect_to: target ? withCaptchaResult(target, { captchaToken, expiresIn, state: input.state }) : '',
  }
}
