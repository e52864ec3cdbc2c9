/** @cumulus/drive: the drive service. So far: content-addressed blob storage, the GCID and signed download links. */
export { type BlobInfo, BlobNotFound, BlobRangeNotSatisfiable, BlobSizeMismatch, type BlobStore, isGcid } from './blobs/blob-store.js'
export { GCID_MAX_BLOCK_BYTES, GCID_MIN_BLOCK_BYTES, GcidHasher, gcidBlockSize, gcidOf } from './blobs/gcid.js'
export { LocalDiskBlobStore } from './blobs/local-disk-blob-store.js'
export { type LinkCheck, type SignedLinkClaims, type SignedLinkParams, signLink, verifyLink } from './downloads/signed-link.js'
