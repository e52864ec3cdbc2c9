import type { ProviderProfile } from '@cumulus/protocol'

export interface ProviderBindingRecord {
  providerId: string
  providerUserId: string
  userId: string
  name: string
  email: string
  createdAtMs: number
}

export interface ProviderFlowRecord {
  providerId: string
  clientId: string
  redirectUri: string
  codeVerifier: string
  nonce: string
  expiresAtMs: number
}

export type ProviderTokenPurpose = 'sign_in' | 'trans'

export interface ProviderTokenRecord {
  providerId: string
  clientId: string
  providerUserId: string
  profile: ProviderProfile
  purpose: ProviderTokenPurpose
  /** When the user signed in at the provider; renewals never move it. */
  authenticatedAtMs: number
  expiresAtMs: number
}

/** Provider sign-in: bindings, flows in progress and provider tokens. */
export interface ProviderStore {
  /** Throws UniqueViolationError when the flow key is taken (the same state twice). */
  createFlow(keyHash: string, flow: ProviderFlowRecord, nowMs: number): Promise<void>
  /** Spends a flow: returns it once when unspent and unexpired, else null. */
  consumeFlow(keyHash: string, nowMs: number): Promise<ProviderFlowRecord | null>

  createToken(tokenHash: string, token: ProviderTokenRecord, nowMs: number): Promise<void>
  /** Spends a token of this purpose: returns it once when unspent and unexpired, else null. */
  consumeToken(tokenHash: string, purpose: ProviderTokenPurpose, nowMs: number): Promise<ProviderTokenRecord | null>

  findBinding(providerId: string, providerUserId: string): Promise<ProviderBindingRecord | null>
  listBindings(userId: string): Promise<ProviderBindingRecord[]>
  /** Throws UniqueViolationError when the identity is bound already, or the account holds one of this provider. */
  bind(binding: ProviderBindingRecord): Promise<void>
  /**
   * Creates an account and binds the identity to it in one transaction, so no account is left
   * without its way to sign in. UniqueViolationError (`provider_user_id`): a parallel sign-in
   * bound the identity first; (`email`): the address is taken.
   */
  createUserWithBinding(user: { id: string; name: string; email: string | null; picture: string; createdAtMs: number }, binding: Omit<ProviderBindingRecord, 'userId' | 'createdAtMs'>): Promise<void>
  /** Removes the account's binding of this provider; false when there was none. */
  unbind(userId: string, providerId: string): Promise<boolean>
  /**
   * Moves a binding to another account (which must not hold one of this provider: else
   * UniqueViolationError). False when the identity is not bound to `fromUserId` any more.
   */
  moveBinding(providerId: string, providerUserId: string, fromUserId: string, toUserId: string): Promise<boolean>

  purgeExpired(nowMs: number): Promise<number>
}
