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
