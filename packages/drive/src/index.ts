/** @cumulus/drive: the drive service. Everything else in this package is private. */
export { driveRoutes, type DriveRoutesOptions } from './app.js'
export type { DriveConfig } from './config.js'
export type { Caller, DriveDeps } from './deps.js'
export { migrateDrive } from './db/migrations.js'
/** The columns an item's name decides (natural-order key, extension, MIME type, category); tools that seed rows use it. */
export { nameColumns } from './features/files/files.js'
export { runDriveHousekeeping, startDriveHousekeeping } from './features/housekeeping/housekeeping.js'
export { type BlobInfo, BlobNotFound, BlobRangeNotSatisfiable, BlobSizeMismatch, type BlobStore, isGcid } from './blobs/blob-store.js'
export { GCID_MAX_BLOCK_BYTES, GCID_MIN_BLOCK_BYTES, GcidHasher, gcidBlockSize, gcidOf } from './blobs/gcid.js'
export { LocalDiskBlobStore } from './blobs/local-disk-blob-store.js'
export { type LinkCheck, type SignedLinkClaims, type SignedLinkParams, signLink, verifyLink } from './features/downloads/signed-link.js'
export { openBlobStore } from './blobs/open-blob-store.js'
export { S3BlobStore, type S3BlobStoreOptions } from './blobs/s3-blob-store.js'
export { DEFAULT_S3_REGION, type LocalStorageConfig, parseStorageUrl, redactStorageUrl, type S3StorageConfig, type StorageConfig } from './blobs/storage-url.js'
export { DRIVE_SUBSCRIBER, driveAccountSubscriber, eraseDriveAccount, type ErasedDriveAccount } from './features/accounts/account-events.js'
/** The blob collector housekeeping runs; erasure tests and tools run it with no grace. */
export { BLOB_GRACE_MS, collectGarbageBlobs } from './features/blobs/blob-refs.js'
