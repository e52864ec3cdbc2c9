export interface MembershipRecord {
  userId: string
  vasType: string
  level: number
  isYear: boolean
  expiresAtMs: number
  updatedAtMs: number
}

/** VIP memberships. A user without a row has never been a member. */
export interface MembershipStore {
  find(userId: string): Promise<MembershipRecord | null>
  /**
   * Extends the membership by `days` from the later of now and the current expiry
   * (a renewal never loses remaining time). Creates it when absent. Returns the new record.
   */
  grant(userId: string, input: { days: number; isYear: boolean; level: number; vasType: string; nowMs: number }): Promise<MembershipRecord>
  /** Stores activation codes the operator made. */
  addCodes(codes: readonly NewActivationCode[], nowMs: number): Promise<void>
  /**
   * Marks the code redeemed by `userId` and extends the user's membership by its days, in one
   * transaction; of any number of concurrent redemptions of one code, exactly one is granted.
   */
  redeemCode(codeHash: string, userId: string, nowMs: number): Promise<RedeemResult>
  /** The user's invite code; stores `candidate` as it when there is none yet. Null when `candidate` is taken by another user (try another). */
  inviteCodeOf(userId: string, candidate: string, nowMs: number): Promise<string | null>
  /**
   * Records that `inviteeId` signed up with `code` and, while the inviter's 30-day budget
   * (`maxRewards` from `windowMs` ago) allows, grants both `rewardDays` — all in one transaction.
   * Null when no account has that code or it is the invitee's own.
   */
  acceptInvite(code: string, inviteeId: string, reward: { days: number; maxRewards: number; windowMs: number; vipLevel: number }, nowMs: number): Promise<{ inviterId: string; rewardedDays: number } | null>
}

/** A new activation code, already hashed. */
export interface NewActivationCode {
  codeHash: string
  vasType: string
  level: number
  days: number
  expiresAtMs: number
}

export type RedeemResult =
  | { kind: 'granted'; vasType: string; days: number; membership: MembershipRecord }
  /** No such code, or it expired unused. */
  | { kind: 'unknown' }
  | { kind: 'used' }
