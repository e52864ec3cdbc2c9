import type { DriveTask, RestoreShareReply, ShareDetailReply, ShareFileInfoReply, ShareInfoReply } from '@cumulus/protocol'
import type { OpenShareInput, RestoreShareInput } from '@cumulus/sdk'
import { onDemand } from '../components/lazy/on-demand'
import { getIdentityClient } from '../session/identity-client'

/**
 * The part of the SDK's `DriveClient` the share page uses (drive.md "Shares"). The page depends
 * on this shape, so the SDK stays out of the page's first load and component tests pass a fake.
 * Every share call but `restoreShare` goes without the bearer: a visitor needs no account.
 */
export interface SharePageApi {
  /** The share's status and, when OK, its top level; the pass code once, its token after. */
  openShare(input: OpenShareInput): Promise<ShareInfoReply>
  /** One page of a folder inside the share. */
  shareFolder(input: { shareId: string; parentId: string; passCodeToken?: string; pageToken?: string }): Promise<ShareDetailReply>
  /** One item with fresh signed links (`web_content_link`, `medias`), for preview and download. */
  shareFile(input: { shareId: string; fileId: string; passCodeToken?: string }): Promise<ShareFileInfoReply>
  /** Saves the share (or chosen items) into the signed-in caller's drive. */
  restoreShare(input: RestoreShareInput): Promise<RestoreShareReply>
  /** Follows a save that runs as a task (`restore`) to its end; rejects with its error. */
  waitForTask(taskId: string, options?: { onProgress?: (task: DriveTask) => void; signal?: AbortSignal }): Promise<DriveTask>
}

/** Loads the page's client; `locale` is the page's, for the SDK's error texts. */
export type LoadShareApi = (locale: string) => Promise<SharePageApi>

const sdk = onDemand(() => import('./share-sdk'))
let client: SharePageApi | null = null

/** The browser's share client, sharing the identity client (and so the session) with the app. */
export const loadShareApi: LoadShareApi = async (locale) => {
  const identity = getIdentityClient(locale)
  const { createShareApi } = await sdk.load()
  client ??= createShareApi(identity)
  return client
}
