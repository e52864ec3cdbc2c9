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
}
