import { onDemand } from '../components/lazy/on-demand'
import { getIdentityClient } from '../session/identity-client'
import type { DriveApi } from './drive-api'

/** The SDK's drive part: not in any page's first load, fetched when a drive page opens. */
const sdk = onDemand(() => import('./drive-sdk'))

let client: DriveApi | null = null

/**
 * The browser's one drive client. It shares the identity client (and so the session, its token
 * refresh and the page's locale for error texts) with the rest of the app.
 */
export async function loadDriveApi(locale: string): Promise<DriveApi> {
  const identity = getIdentityClient(locale)
  const { createDriveApi } = await sdk.load()
  client ??= createDriveApi(identity)
  return client
}
