import type { MembershipRecord, MembershipStore, NewActivationCode, RedeemResult } from './membership-store.js'
import type { ActiveSession, LiveSession, NewSession, RotateInput, RotationResult, SessionRecord, SessionStore } from './session-store.js'
import type { NewUser, UserPatch, UserRecord, UserStore } from './user-store.js'
import type { ProviderBindingRecord, ProviderFlowRecord, ProviderStore, ProviderTokenPurpose, ProviderTokenRecord } from './provider-store.js'

/** What changed: one session, or everything about one user (profile, status, membership, sessions). */
export type SessionInvalidation = { sessionId: string } | { userId: string }

/**
 * Carries invalidations between the nodes that share one database, so a session revoked on one
 * node stops working on every node at once rather than when the other nodes' entries expire.
 * Delivery is best effort (Redis pub/sub): a message lost while a node was disconnected is
 * covered by the cache's short lifetime.
 */
export interface InvalidationChannel {
  publish(message: SessionInvalidation): void
  subscribe(handler: (message: SessionInvalidation) => void): void
  close(): Promise<void>
}

export interface SessionCacheOptions {
  /** How long one lookup is reused at most; 0 turns the cache off. */
  ttlMs: number
  /** Entries kept at most (oldest dropped first). */
  maxEntries?: number
  channel?: InvalidationChannel | undefined
}

interface Entry {
  value: ActiveSession
  until: number
}

/**
 * The result of the session check that every authenticated request runs (session live, user,
 * membership), kept for a moment per session. Without it every API call costs a database round
 * trip, which on PostgreSQL was most of the cost of a `GET /v1/user/me`.
 *
 * Correctness rests on invalidation, not on the lifetime: every write through the stores that can
 * change a cached answer (revocation, a reused refresh token, profile, status, deletion, erasure,
 * membership) drops the entries it touches here and on the other nodes, before it returns. A
 * lookup that started before such a write never fills the cache (the generation check), so a
 * stale answer cannot be stored after its invalidation. Writes that bypass the stores (an operator
 * editing the database by hand, another process without the channel) are seen within `ttlMs`.
 */
export class SessionCache {
  readonly #ttlMs: number
  readonly #maxEntries: number
  readonly #entries = new Map<string, Entry>()
  /** Each user's provider bindings (the profile's `providers`), dropped with the user's entries. */
  readonly #bindings = new Map<string, { value: ProviderBindingRecord[]; until: number }>()
  readonly #channel: InvalidationChannel | undefined
  #generation = 0

  constructor(options: SessionCacheOptions) {
    this.#ttlMs = options.ttlMs
    this.#maxEntries = options.maxEntries ?? 10_000
    this.#channel = options.channel
    this.#channel?.subscribe((message) => this.#drop(message))
  }

  get enabled(): boolean {
    return this.#ttlMs > 0
  }

  /** The cached answer for a session still live at `nowMs`, or undefined. */
  get(sessionId: string, nowMs: number): ActiveSession | undefined {
    const entry = this.#entries.get(sessionId)
    if (!entry) return undefined
    if (entry.until <= nowMs || entry.value.session.expiresAtMs <= nowMs) {
      this.#entries.delete(sessionId)
      return undefined
    }
    return entry.value
  }

  /** Taken before a lookup; `set` ignores the result when an invalidation happened since. */
  generation(): number {
    return this.#generation
  }

  set(sessionId: string, value: ActiveSession, nowMs: number, generation: number): void {
    if (!this.enabled || generation !== this.#generation) return
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next()
      if (!oldest.done) this.#entries.delete(oldest.value)
    }
    this.#entries.set(sessionId, { value, until: nowMs + this.#ttlMs })
  }

  getBindings(userId: string, nowMs: number): ProviderBindingRecord[] | undefined {
    const entry = this.#bindings.get(userId)
    if (!entry) return undefined
    if (entry.until <= nowMs) {
      this.#bindings.delete(userId)
      return undefined
    }
    return entry.value
  }

  setBindings(userId: string, value: ProviderBindingRecord[], nowMs: number, generation: number): void {
    if (!this.enabled || generation !== this.#generation) return
    if (this.#bindings.size >= this.#maxEntries) {
      const oldest = this.#bindings.keys().next()
      if (!oldest.done) this.#bindings.delete(oldest.value)
    }
    this.#bindings.set(userId, { value, until: nowMs + this.#ttlMs })
  }

  /** Drops what `message` names here and tells the other nodes. */
  invalidate(message: SessionInvalidation): void {
    this.#drop(message)
    this.#channel?.publish(message)
  }

  #drop(message: SessionInvalidation): void {
    this.#generation++
    if ('sessionId' in message) {
      this.#entries.delete(message.sessionId)
      return
    }
    for (const [id, entry] of this.#entries) if (entry.value.user.id === message.userId) this.#entries.delete(id)
    this.#bindings.delete(message.userId)
  }

  async close(): Promise<void> {
    this.#entries.clear()
    this.#bindings.clear()
    await this.#channel?.close()
  }
}

/** SessionStore whose `findActive` is served from the cache, and whose revocations invalidate it. */
export class CachingSessionStore implements SessionStore {
  constructor(
    private readonly inner: SessionStore,
    private readonly cache: SessionCache,
  ) {}

  create(session: NewSession, refreshTokenHash: string): Promise<void> {
    return this.inner.create(session, refreshTokenHash)
  }

  listLive(userId: string, nowMs: number, limit: number): Promise<LiveSession[]> {
    return this.inner.listLive(userId, nowMs, limit)
  }

  async revokeOwn(userId: string, sessionId: string, reason: string, nowMs: number): Promise<boolean> {
    try {
      return await this.inner.revokeOwn(userId, sessionId, reason, nowMs)
    } finally {
      this.cache.invalidate({ sessionId })
    }
  }

  async findActive(sessionId: string, nowMs: number): Promise<ActiveSession | null> {
    const cached = this.cache.get(sessionId, nowMs)
    if (cached) return cached
    const generation = this.cache.generation()
    const active = await this.inner.findActive(sessionId, nowMs)
    if (active) this.cache.set(sessionId, active, nowMs, generation)
    return active
  }

  async rotateRefreshToken(input: RotateInput): Promise<RotationResult> {
    const result = await this.inner.rotateRefreshToken(input)
    // A reuse revoked the whole session.
    if (result.kind === 'reused') this.cache.invalidate({ sessionId: result.sessionId })
    return result
  }

  findByRefreshToken(tokenHash: string): Promise<SessionRecord | null> {
    return this.inner.findByRefreshToken(tokenHash)
  }

  async revoke(sessionId: string, reason: string, nowMs: number): Promise<void> {
    try {
      await this.inner.revoke(sessionId, reason, nowMs)
    } finally {
      this.cache.invalidate({ sessionId })
    }
  }

  async revokeAllForUser(userId: string, reason: string, nowMs: number, exceptSessionId?: string): Promise<number> {
    try {
      return await this.inner.revokeAllForUser(userId, reason, nowMs, exceptSessionId)
    } finally {
      this.cache.invalidate({ userId })
    }
  }

  async revokeForUserClient(userId: string, clientId: string, reason: string, nowMs: number): Promise<number> {
    try {
      return await this.inner.revokeForUserClient(userId, clientId, reason, nowMs)
    } finally {
      this.cache.invalidate({ userId })
    }
  }

  createSudoToken(tokenHash: string, userId: string, sessionId: string, expiresAtMs: number): Promise<void> {
    return this.inner.createSudoToken(tokenHash, userId, sessionId, expiresAtMs)
  }

  findSudoToken(tokenHash: string, nowMs: number): Promise<{ userId: string; sessionId: string } | null> {
    return this.inner.findSudoToken(tokenHash, nowMs)
  }

  deleteSudoToken(tokenHash: string): Promise<void> {
    return this.inner.deleteSudoToken(tokenHash)
  }

  purgeEnded(beforeMs: number): Promise<number> {
    return this.inner.purgeEnded(beforeMs)
  }
}

/** UserStore whose writes invalidate the cached sessions of the user they change. */
export class CachingUserStore implements UserStore {
  constructor(
    private readonly inner: UserStore,
    private readonly cache: SessionCache,
  ) {}

  create(user: NewUser): Promise<UserRecord> {
    return this.inner.create(user)
  }
  findById(id: string): Promise<UserRecord | null> {
    return this.inner.findById(id)
  }
  findByEmail(email: string): Promise<UserRecord | null> {
    return this.inner.findByEmail(email)
  }
  findByPhone(phoneNumber: string): Promise<UserRecord | null> {
    return this.inner.findByPhone(phoneNumber)
  }
  findByUsername(username: string): Promise<UserRecord | null> {
    return this.inner.findByUsername(username)
  }
  findWithMembership(id: string): Promise<{ user: UserRecord; membership: MembershipRecord | null } | null> {
    return this.inner.findWithMembership(id)
  }
  findByIds(ids: readonly string[]): Promise<UserRecord[]> {
    return this.inner.findByIds(ids)
  }
  list(options: { limit: number; offset?: number }): Promise<UserRecord[]> {
    return this.inner.list(options)
  }

  async update(id: string, patch: UserPatch, nowMs: number): Promise<void> {
    try {
      await this.inner.update(id, patch, nowMs)
    } finally {
      this.cache.invalidate({ userId: id })
    }
  }

  async requestDeletion(id: string, nowMs: number, eraseAtMs: number): Promise<void> {
    try {
      await this.inner.requestDeletion(id, nowMs, eraseAtMs)
    } finally {
      this.cache.invalidate({ userId: id })
    }
  }

  async cancelDeletion(id: string, nowMs: number): Promise<boolean> {
    try {
      return await this.inner.cancelDeletion(id, nowMs)
    } finally {
      this.cache.invalidate({ userId: id })
    }
  }

  async eraseDue(nowMs: number): Promise<string[]> {
    const erased = await this.inner.eraseDue(nowMs)
    for (const userId of erased) this.cache.invalidate({ userId })
    return erased
  }
}

/** MembershipStore whose grants invalidate the member's cached sessions (they carry vip_info). */
export class CachingMembershipStore implements MembershipStore {
  constructor(
    private readonly inner: MembershipStore,
    private readonly cache: SessionCache,
  ) {}

  find(userId: string): Promise<MembershipRecord | null> {
    return this.inner.find(userId)
  }

  async grant(userId: string, input: { days: number; isYear: boolean; level: number; vasType: string; nowMs: number }): Promise<MembershipRecord> {
    try {
      return await this.inner.grant(userId, input)
    } finally {
      this.cache.invalidate({ userId })
    }
  }

  addCodes(codes: readonly NewActivationCode[], nowMs: number): Promise<void> {
    return this.inner.addCodes(codes, nowMs)
  }

  inviteCodeOf(userId: string, candidate: string, nowMs: number): Promise<string | null> {
    return this.inner.inviteCodeOf(userId, candidate, nowMs)
  }

  async acceptInvite(code: string, inviteeId: string, reward: { days: number; maxRewards: number; windowMs: number; vipLevel: number }, nowMs: number): Promise<{ inviterId: string; rewardedDays: number } | null> {
    const accepted = await this.inner.acceptInvite(code, inviteeId, reward, nowMs)
    if (accepted && accepted.rewardedDays > 0) for (const userId of [inviteeId, accepted.inviterId]) this.cache.invalidate({ userId })
    return accepted
  }

  async redeemCode(codeHash: string, userId: string, nowMs: number): Promise<RedeemResult> {
    const result = await this.inner.redeemCode(codeHash, userId, nowMs)
    // The session check carries the membership: the next request must see the new expiry.
    if (result.kind === 'granted') this.cache.invalidate({ userId })
    return result
  }
}

/**
 * The provider store with each user's bindings kept in the session cache: `GET /v1/user/me` lists
 * them on every call, and they change only through bind, unbind, move and sign-up, which drop the
 * user's entries here and on the other nodes before they return.
 */
export class CachingProviderStore implements ProviderStore {
  constructor(
    private readonly inner: ProviderStore,
    private readonly cache: SessionCache,
    private readonly nowMs: () => number = Date.now,
  ) {}

  createFlow(keyHash: string, flow: ProviderFlowRecord, nowMs: number) {
    return this.inner.createFlow(keyHash, flow, nowMs)
  }

  consumeFlow(keyHash: string, nowMs: number) {
    return this.inner.consumeFlow(keyHash, nowMs)
  }

  createToken(tokenHash: string, token: ProviderTokenRecord, nowMs: number) {
    return this.inner.createToken(tokenHash, token, nowMs)
  }

  consumeToken(tokenHash: string, purpose: ProviderTokenPurpose, nowMs: number) {
    return this.inner.consumeToken(tokenHash, purpose, nowMs)
  }

  findBinding(providerId: string, providerUserId: string) {
    return this.inner.findBinding(providerId, providerUserId)
  }

  async listBindings(userId: string) {
    const now = this.nowMs()
    const hit = this.cache.getBindings(userId, now)
    if (hit) return hit
    const generation = this.cache.generation()
    const value = await this.inner.listBindings(userId)
    this.cache.setBindings(userId, value, now, generation)
    return value
  }

  async bind(binding: ProviderBindingRecord) {
    try {
      await this.inner.bind(binding)
    } finally {
      this.cache.invalidate({ userId: binding.userId })
    }
  }

  async createUserWithBinding(user: Parameters<ProviderStore['createUserWithBinding']>[0], binding: Parameters<ProviderStore['createUserWithBinding']>[1]) {
    try {
      await this.inner.createUserWithBinding(user, binding)
    } finally {
      this.cache.invalidate({ userId: user.id })
    }
  }

  async unbind(userId: string, providerId: string) {
    try {
      return await this.inner.unbind(userId, providerId)
    } finally {
      this.cache.invalidate({ userId })
    }
  }

  async moveBinding(providerId: string, providerUserId: string, fromUserId: string, toUserId: string) {
    try {
      return await this.inner.moveBinding(providerId, providerUserId, fromUserId, toUserId)
    } finally {
      this.cache.invalidate({ userId: fromUserId })
      this.cache.invalidate({ userId: toUserId })
    }
  }

  purgeExpired(nowMs: number) {
    return this.inner.purgeExpired(nowMs)
  }
}
