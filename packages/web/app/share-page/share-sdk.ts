import { DriveClient, type IdentityClient } from '@cumulus/sdk'
import type { SharePageApi } from './share-api'

/** The share page's drive client, in its own chunk with the SDK (share-api.ts loads it on demand). */
export function createShareApi(identity: IdentityClient): SharePageApi {
  return new DriveClient({ identity, storage: window.localStorage })
}
