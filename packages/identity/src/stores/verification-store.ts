export interface VerificationRecord {
  id: string
  channel: 'email' | 'phone'
  /** Normalised address the code was sent to. */
  address: string
  usage: string
  /** The signed-in user (target CUR_USER) or the existing account at that address, if any. */
  userId: string | null
  clientId: string
  codeHash: string
  attempts: number
  createdAtMs: number
  expiresAtMs: number
  verifiedAtMs: number | null
  tokenExpiresAtMs: number | null
  consumedAtMs: number | null
}

/** One-time codes and the verification tokens they are exchanged for. */
export interface VerificationStore {
  create(record: Omit<VerificationRecord, 'attempts' | 'verifiedAtMs' | 'tokenExpiresAtMs' | 'consumedAtMs'>): Promise<void>
  findById(id: string): Promise<VerificationRecord | null>
  /**
   * Counts one attempt atomically and returns the attempts made, including this one, or null
   * when `maxAttempts` were already used (the code is burned) or the record is gone.
   */
  recordAttempt(id: string, maxAttempts: number): Promise<number | null>
  /** Marks the code verified and stores the verification token's hash. False when already verified. */
  markVerified(id: string, tokenHash: string, tokenExpiresAtMs: number, nowMs: number): Promise<boolean>
  /** The unconsumed, unexpired verification behind a token, or null. Does not mutate. */
  findByToken(tokenHash: string, nowMs: number): Promise<VerificationRecord | null>
  /** Consumes a token once: true for the single caller that wins, false for any other. */
  consumeToken(tokenHash: string, nowMs: number): Promise<boolean>
  /** Deletes records whose code and token have both expired before `beforeMs`. */
  purgeExpired(beforeMs: number): Promise<number>
}
