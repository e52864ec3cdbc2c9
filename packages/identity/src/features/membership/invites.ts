import type { IdentityDeps } from '../../deps.js'
import type { AuthContext } from '../tokens/sessions.js'
import { normaliseCode, randomCode } from './crockford.js'

/**
 * Invite codes (drive.md "Membership"): every account has one (`GET /vip/v1/activity/inviteCode`),
 * made when first asked for. A new account that signs up with it (`invite_code` on
 * `POST /v1/auth/signup`, our extension) gives itself and the inviter `invites.rewardDays` of
 * membership, at most `invites.rewardsPer30Days` times per inviter in 30 days. Anonymous
 * sign-ups take no invite: they cost nothing to make, so they would mint membership.
 */

const INVITE_CODE_LENGTH = 8
const WINDOW_MS = 30 * 86_400_000
/** Fresh candidates tried when one is already another account's (40 bits: practically never). */
const CANDIDATES = 5

/** An invite code as typed, made canonical (see crockford.ts), or null when it cannot be one. */
export function normaliseInviteCode(input: string): string | null {
  return normaliseCode(input, INVITE_CODE_LENGTH)
}

/** `GET /vip/v1/activity/inviteCode` → `{code}`. */
export async function inviteCode(deps: Pick<IdentityDeps, 'memberships' | 'clock'>, auth: AuthContext): Promise<{ code: string }> {
  for (let attempt = 0; attempt < CANDIDATES; attempt += 1) {
    const code = await deps.memberships.inviteCodeOf(auth.user.id, randomCode(INVITE_CODE_LENGTH), deps.clock.nowMs())
    if (code !== null) return { code }
  }
  throw new Error('could not find a free invite code')
}

/**
 * After a sign-up with `invite_code`: records the invitation and rewards both accounts. A code
 * that is malformed or names no account is ignored: the sign-up itself has already succeeded.
 */
export async function acceptInvite(deps: Pick<IdentityDeps, 'memberships' | 'clock' | 'config' | 'logger'>, inviteeId: string, typed: string | undefined): Promise<void> {
  if (!typed) return
  const code = normaliseInviteCode(typed)
  if (code === null) return
  const { rewardDays, rewardsPer30Days } = deps.config.invites
  try {
    const accepted = await deps.memberships.acceptInvite(code, inviteeId, { days: rewardDays, maxRewards: rewardsPer30Days, windowMs: WINDOW_MS, vipLevel: deps.config.plans['vip'] ?? 1 }, deps.clock.nowMs())
    if (accepted) deps.logger.info({ inviteeId, inviterId: accepted.inviterId, rewardedDays: accepted.rewardedDays }, 'sign-up with an invite code')
  } catch (err) {
    // The account exists and its verification is spent: the sign-up must still succeed.
    deps.logger.warn({ err, inviteeId }, 'could not apply an invite code to a new account')
  }
}
