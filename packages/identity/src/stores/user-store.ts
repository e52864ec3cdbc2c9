import type { UserStatus } from '../db/schema.js'
import type { MembershipRecord } from './membership-store.js'

export interface UserRecord {
  id: string
  username: string | null
  email: string | null
  phoneNumber: string | null
  name: string
  picture: string
  passwordHash: string | null
  passwordUpdatedAtMs: number | null
  status: UserStatus
  anonymous: boolean
  createdAtMs: number
  updatedAtMs: number
  deletionRequestedAtMs: number | null
  eraseAtMs: number | null
}

export type NewUser = Pick<UserRecord, 'id' | 'name' | 'anonymous' | 'createdAtMs'> &
  Partial<Pick<UserRecord, 'username' | 'email' | 'phoneNumber' | 'picture' | 'passwordHash'>>

export type UserPatch = Partial<Pick<UserRecord, 'name' | 'picture' | 'email' | 'phoneNumber' | 'username' | 'passwordHash' | 'passwordUpdatedAtMs' | 'anonymous'>>

/** Accounts. Addresses are stored normalised (lower-case e-mail, E.164 phone). */
export interface UserStore {
  /** Inserts a user. Throws UniqueViolationError when the e-mail, phone or username is taken. */
  create(user: NewUser): Promise<UserRecord>
  /** The user with this id, or null. */
  findById(id: string): Promise<UserRecord | null>
  findByEmail(email: string): Promise<UserRecord | null>
  findByPhone(phoneNumber: string): Promise<UserRecord | null>
  findByUsername(username: string): Promise<UserRecord | null>
  /** The user and their membership (null when never a member) in one read, for the profile; null when no such user. */
  findWithMembership(id: string): Promise<{ user: UserRecord; membership: MembershipRecord | null } | null>
  /** Users with these ids, in no particular order; unknown ids are skipped. */
  findByIds(ids: readonly string[]): Promise<UserRecord[]>
  /** Applies `patch` and bumps updated_at. Throws UniqueViolationError on a taken address. No-op for a missing id. */
  update(id: string, patch: UserPatch, nowMs: number): Promise<void>
  /** Freezes the account for deletion, to be erased at `eraseAtMs`; records `account.frozen` in the same transaction. No-op for a missing id. */
  requestDeletion(id: string, nowMs: number, eraseAtMs: number): Promise<void>
  /** Returns a frozen account to ACTIVE and records `account.restored` in the same transaction. False when it was not frozen (or is gone). */
  cancelDeletion(id: string, nowMs: number): Promise<boolean>
  /** Deletes every frozen account whose erase time has come, with its dependent rows, and records one `account.erased` each in the same transaction. Returns their ids. */
  eraseDue(nowMs: number): Promise<string[]>
  /** Users in creation order, for operators. */
  list(options: { limit: number; offset?: number }): Promise<UserRecord[]>
}
