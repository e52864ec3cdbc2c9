import { DriveClient, type IdentityClient } from '@cumulus/sdk'
import type { DriveApi } from './drive-api'

/**
 * The browser's drive client, in its own chunk with the SDK (drive-client.ts loads it when a
 * drive page first needs it). Resumable uploads are remembered in localStorage, so an upload
 * interrupted by a reload or a closed tab can continue from where the server's offset is.
 */
export function createDriveApi(identity: IdentityClient): DriveApi {
  return new DriveClient({ identity, storage: window.localStorage })
}
