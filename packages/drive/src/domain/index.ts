/*
 * The drive's shared domain: what more than one feature needs to keep the drive consistent
 * (items and their names, tree walks and the per-user tree lock, quota accounting, blob
 * references, deleting subtrees, task and event records, the file view with its signed links).
 *
 * The rule: a feature under `features/` imports from this module (through this file), `lib/`,
 * `db/`, `blobs/`, `http/`, `deps.ts` and `config.ts`, and from its own folder, never from another
 * feature. When a second feature needs something a feature holds, it moves here. Only the
 * composition (`app.ts` wiring the routes, `housekeeping.ts` the periodic chores) imports
 * features. This module never imports a feature. `domain/feature-imports.test.ts` checks both.
 */
export { holdAccount, isAccountHeld, releaseAccount } from './account-holds.js'
export { addBlobRef, addBlobRefsInBulk, announceBlob, announceBlobs, BLOB_GRACE_MS, countByGcid, releaseBlobRefsInBulk } from './blob-refs.js'
export { signedContentUrl, signedMediaUrl, signedShareContentUrl, signedShareThumbnailUrl, signedThumbnailUrl } from './content-url.js'
export { type CopySource, type CopyTarget, copyTree, countTree } from './copy-tree.js'
export { deleteTrees } from './delete-trees.js'
export { trashItems } from './trash-items.js'
export { EVENT_TYPES, type EventType, recordEvents } from './events.js'
export { type FileRow, fileView, type LinkMakers } from './file-view.js'
export { findOwned, insertItem, insertItemInOneStatement, insertItems, isPostgres, liveFolder, nameColumns, type NewItem, takenNames } from './items.js'
export { categoryOf, mimeTypeOf } from './mime.js'
export { checkName, freeName, freeNames, nameKey, splitExtension } from './names.js'
export { retryOnConflict, retryOnNameRace } from './retry.js'
export { type LinkCheck, type SignedLinkClaims, type SignedLinkParams, signLink, verifyLink } from './signed-link.js'
export { StagingArea, stagingOf } from './staging.js'
export { type NewTask, recordTask, takeRunningSlot, taskView } from './tasks.js'
export { OFFLINE_QUEUE, type OfflineQuota, type OfflineWork, cancelOfflineRun, enqueueOfflineRun, offlineQuota, offlineStagingPath, offlineStagingRoot, removeOfflineStaging, workLimits, workOf } from './offline.js'
export { FREE_PLAN_NAME, type ActivePlan, type PaidPlan, type PlanLimits, type PlanTable, limitsOf, planOf } from './plans.js'
export { ancestorsOf, type Descent, descentCondition, lockUserTree, subtreeParents } from './tree.js'
export { adjustUsage, quotaLimit, reserveSpace, usageOf } from './usage.js'
export { type DownloadableFile, requireDownloadable } from './downloadable.js'
export { THUMBNAIL_QUEUE, type ThumbnailCategory, type ThumbnailJobData, enqueueThumbnail, isThumbnailCategory } from './thumbnails.js'
export { MEDIA_QUEUE, type MediaJobData, type SubtitleTrack, TRANSCODE_QUEUE, type VideoProbe, enqueueMedia, forgetMedia, probeOf, transcodesOnArrival } from './media.js'
export { forgetOldTraffic, meterDownload, trafficToday } from './traffic.js'
export { countPlay, forgetOldPlays, mayPlay, playsToday } from './plays.js'
export { videoDetail } from './video-detail.js'
export { DECOMPRESS_QUEUE, MAX_QUEUED_DECOMPRESS, cancelDecompressRun, requireDecompressRoom, decompressStagingPath, decompressStagingRoot, enqueueDecompressRun, removeDecompressStaging } from './decompress.js'
export { foldQuery, foldWithMap, hasCjk, highlightOf, pinyinOf, searchColumns, type SearchColumns, wordsOf } from './search-text.js'
export { itemInShare, liveRootIds, newShareCache, requireOpenShareItem, SHARE_MAX_DEPTH, type ShareCache, shareStanding, underAnyOf } from './shares.js'
