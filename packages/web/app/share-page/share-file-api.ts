import type { DriveFile, ShareStatus } from '@cumulus/protocol'
import type { DriveApi } from '../drive/drive-api'
import type { SharePageApi } from './share-api'

/** A share call that answered a status other than OK (the share was cancelled or expired meanwhile). */
export class ShareUnavailableError extends Error {
  constructor(
    readonly status: ShareStatus,
    readonly text: string,
  ) {
    super(text)
    this.name = 'ShareUnavailableError'
  }
}

/** One item of the share with fresh signed links, or a ShareUnavailableError. */
export async function requireSharedFile(api: SharePageApi, shareId: string, fileId: string, passCodeToken: string | undefined): Promise<DriveFile> {
  const reply = await api.shareFile({ shareId, fileId, passCodeToken })
  if (reply.share_status !== 'OK' || !reply.file_info) throw new ShareUnavailableError(reply.share_status, reply.share_status_text)
  return reply.file_info
}

/**
 * The drive's preview dialog and video player read files through a `DriveApi`; on a share page
 * they read the share's items instead: `get` and `downloadUrl` ask `share/file_info` for fresh
 * links, a visitor has no playback position to restore or save, and shared videos come without
 * subtitles. The preview calls nothing else; every other method refuses (a proxy, so methods the
 * drive adds later refuse too without being listed here).
 */
export function shareFileApi(api: SharePageApi, shareId: string, passCodeToken: string | undefined): DriveApi {
  const get = (id: string) => requireSharedFile(api, shareId, id, passCodeToken)
  const supported: Partial<DriveApi> = {
    get,
    downloadUrl: async (id) => {
      const file = await get(id)
      if (!file.web_content_link) throw new ShareUnavailableError('OK', '')
      return file.web_content_link
    },
    playback: async (id) => ({ kind: 'drive#playback', file_id: id, position_seconds: 0, duration_seconds: 0, updated_time: '' }),
    savePlayback: async (id, input) => ({ kind: 'drive#playback', file_id: id, position_seconds: input.positionSeconds, duration_seconds: input.durationSeconds ?? 0, updated_time: '' }),
    subtitles: async () => ({ kind: 'drive#subtitleList', subtitles: [] }),
    pendingUploads: () => [],
  }
  return new Proxy(supported, {
    get(target, property) {
      if (typeof property !== 'string' || property === 'then') return undefined
      return (target as Record<string, unknown>)[property] ?? notForShares(property)
    },
  }) as DriveApi
}

function notForShares(method: string) {
  return () => Promise.reject(new Error(`${method} is not available on a share page`))
}
