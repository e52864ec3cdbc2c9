import type { DriveDeps } from '../deps.js'

/*
 * Accounts in their cancellation review (identity's account.frozen, until account.restored or
 * account.erased). Whatever serves an account's content to someone without a session (signed
 * download links today, share links later) checks here, so a frozen account serves nothing.
 */

/** account.frozen: holds the account from `sinceMs`. Idempotent. */
export async function holdAccount(deps: Pick<DriveDeps, 'db'>, userId: string, sinceMs: number): Promise<void> {
  await deps.db
    .insertInto('drive_account_holds')
    .values({ user_id: userId, since: sinceMs })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute()
}

/** account.restored: lifts the hold. Idempotent. */
export async function releaseAccount(deps: Pick<DriveDeps, 'db'>, userId: string): Promise<void> {
  await deps.db.deleteFrom('drive_account_holds').where('user_id', '=', userId).execute()
}

/** True while the account is frozen for deletion. */
export async function isAccountHeld(deps: Pick<DriveDeps, 'db'>, userId: string): Promise<boolean> {
  return (await deps.db.selectFrom('drive_account_holds').select('user_id').where('user_id', '=', userId).executeTakeFirst()) !== undefined
}
