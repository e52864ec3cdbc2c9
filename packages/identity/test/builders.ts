import { WEB_CLIENT_ID } from '@cumulus/protocol'
import type { RegisteredClient } from '../src/config.js'
import type { IdentityDeps } from '../src/deps.js'
import { newUserId } from '../src/features/users/admin.js'
import { normalizeEmail, normalizePhone } from '../src/lib/identifiers.js'
import { randomId } from '../src/lib/secrets.js'
import type { UserRecord } from '../src/stores/user-store.js'
import type { CountingHasher } from './test-app.js'

let sequence = 0

export interface BuiltUser {
  user: UserRecord
  password: string
}

/** A valid, unique registered user with a password. Tests state only the fields they are about. */
export async function aUser(
  t: { deps: IdentityDeps; hasher: CountingHasher },
  overrides: Partial<Pick<UserRecord, 'email' | 'phoneNumber' | 'username' | 'name'>> & { password?: string | null } = {},
): Promise<BuiltUser> {
  sequence += 1
  const password = overrides.password === undefined ? `pass-${randomId(6)}` : overrides.password
  const user = await t.deps.users.create({
    id: newUserId(),
    // Stores hold normalised addresses, as the domain functions write them.
    email: overrides.email === undefined ? `user${sequence}-${randomId(4).toLowerCase().replace(/[^a-z0-9]/g, 'x')}@example.com` : overrides.email && normalizeEmail(overrides.email),
    phoneNumber: overrides.phoneNumber ? normalizePhone(overrides.phoneNumber) : null,
    username: overrides.username ?? null,
    name: overrides.name ?? `User ${sequence}`,
    passwordHash: password === null ? null : await t.deps.hasher.hash(password),
    anonymous: false,
    createdAtMs: t.deps.clock.nowMs(),
  })
  t.hasher.reset()
  return { user, password: password ?? '' }
}

/** The configured web client (configured clients need no database read). */
export function webClient(deps: IdentityDeps): RegisteredClient {
  const client = deps.clients.all().find((c) => c.clientId === WEB_CLIENT_ID)
  if (!client) throw new Error('the test configuration has no web client')
  return client
}
