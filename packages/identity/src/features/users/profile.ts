import { AppError, GenericErrors, type ProviderBinding, type PublicProfile, type UserProfile, VIP_USER_VAS, type VipInfo } from '@cumulus/protocol'
import type { IdentityDeps } from '../../deps.js'
import { toRfc3339 } from '../../lib/clock.js'
import type { MembershipRecord } from '../../stores/membership-store.js'
import type { UserRecord } from '../../stores/user-store.js'
import type { AuthContext } from '../tokens/sessions.js'
import { listBindings } from '../providers/providers.js'

type Deps = Pick<IdentityDeps, 'config' | 'clock' | 'users' | 'memberships' | 'providerStore'>

/** The VIP entry of `vip_info` (user_vas 2). Never a member: not VIP, expiring at account creation. */
export function vipInfo(deps: Pick<IdentityDeps, 'config' | 'clock'>, user: UserRecord, membership: MembershipRecord | null): VipInfo {
  const active = membership !== null && membership.expiresAtMs > deps.clock.nowMs()
  const icon = (size: 'large' | 'small') => `${deps.config.publicUrl}/v1/assets/vip-${size}.svg`
  return {
    user_vas: VIP_USER_VAS,
    is_vip: active ? 1 : 0,
    is_year: active && membership.isYear ? 1 : 0,
    expire: toRfc3339(membership?.expiresAtMs ?? user.createdAtMs),
    vas_type: active ? membership.vasType : 'novip',
    level: active ? membership.level : 0,
    vip_icon: active ? { large: icon('large'), small: icon('small') } : { large: '', small: '' },
  }
}

export function toProfile(deps: Pick<IdentityDeps, 'config' | 'clock'>, user: UserRecord, membership: MembershipRecord | null, providers: ProviderBinding[] = []): UserProfile {
  return {
    sub: user.id,
    name: user.name,
    email: user.email ?? '',
    phone_number: user.phoneNumber ?? '',
    picture: user.picture,
    providers,
    password: user.passwordHash ? 'SET' : '',
    status: 'ACTIVE',
    created_at: toRfc3339(user.createdAtMs),
    password_updated_at: toRfc3339(user.passwordUpdatedAtMs ?? user.createdAtMs),
    vip_info: [vipInfo(deps, user, membership)],
  }
}

/** GET /v1/user/me: the account as the session check already read it, and its provider bindings (one indexed read). */
export async function getProfile(deps: Pick<IdentityDeps, 'config' | 'clock' | 'providerStore'>, auth: AuthContext): Promise<UserProfile> {
  return toProfile(deps, auth.user, auth.membership, await listBindings(deps, auth.userId))
}

const MAX_PICTURE_URL_LENGTH = 2048

/** PATCH /v1/user/profile */
export async function updateProfile(deps: Deps, auth: AuthContext, input: { name?: string | undefined; picture?: string | undefined }, cleanName: (n: string | undefined) => string | undefined): Promise<UserProfile> {
  const name = cleanName(input.name)
  let picture: string | undefined
  if (input.picture !== undefined) {
    picture = input.picture.trim()
    if (picture !== '' && (picture.length > MAX_PICTURE_URL_LENGTH || !/^https?:\/\/[^\s]+$/i.test(picture))) {
      throw new AppError(GenericErrors.invalid_argument, { description: 'picture must be an http(s) URL or empty', metadata: { field: 'picture' } })
    }
  }
  await deps.users.update(auth.userId, { name, picture }, deps.clock.nowMs())
  const found = await deps.users.findWithMembership(auth.userId)
  if (!found) throw new AppError(GenericErrors.unauthenticated, { description: 'the account no longer exists' })
  return toProfile(deps, found.user, found.membership, await listBindings(deps, auth.userId))
}

const MAX_QUERY_IDS = 100

/** GET /v1/user/query?ids=a,b: public profiles only. */
export async function queryUsers(deps: Pick<IdentityDeps, 'users'>, idsParam: string | string[]): Promise<{ users: PublicProfile[] }> {
  const ids = [...new Set((Array.isArray(idsParam) ? idsParam : [idsParam]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean))]
  if (ids.length > MAX_QUERY_IDS) throw new AppError(GenericErrors.invalid_argument, { description: `at most ${MAX_QUERY_IDS} ids`, metadata: { field: 'ids' } })
  const users = await deps.users.findByIds(ids)
  const byId = new Map(users.filter((u) => u.status === 'ACTIVE').map((u) => [u.id, u]))
  return { users: ids.flatMap((id) => (byId.has(id) ? [{ sub: id, name: byId.get(id)!.name, picture: byId.get(id)!.picture }] : [])) }
}
