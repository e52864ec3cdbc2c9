import { AppError, DriveErrors, type ErrorEntry, GenericErrors } from '@cumulus/protocol'

/**
 * tus replies by status (tus 1.0 core and extensions, and @tus/server's ERRORS). A tus client
 * acts on the status (409: ask HEAD for the offset; 410 and 404: start over; 412: wrong
 * version; 413: too big; 460: checksum), so each keeps its status and gets the catalogue entry
 * of that status; the body is the contract's error body like every other route's (issue 11:
 * these were `text/plain` bodies such as "Upload-Offset conflict").
 */
const ENTRY_BY_STATUS: Readonly<Record<number, ErrorEntry>> = {
  400: GenericErrors.invalid_argument,
  403: DriveErrors.upload_header_required,
  404: DriveErrors.file_not_found,
  409: DriveErrors.upload_offset_conflict,
  410: DriveErrors.upload_expired,
  412: DriveErrors.upload_protocol_unsupported,
  413: DriveErrors.upload_size_exceeded,
  415: DriveErrors.upload_content_type_invalid,
  460: DriveErrors.upload_checksum_mismatch,
  501: GenericErrors.unimplemented,
}

/**
 * The AppError for a tus error reply of `status` whose text was `body`. A status the table does
 * not name becomes a generic entry of its class (failed_precondition 400, internal 500), and a
 * 5xx never shows tus's text.
 */
export function tusAppError(status: number, body: string): AppError {
  const entry = ENTRY_BY_STATUS[status] ?? (status >= 500 ? GenericErrors.internal : GenericErrors.failed_precondition)
  const description = status >= 500 ? undefined : body.trim() || undefined
  return new AppError(entry, description === undefined ? {} : { description })
}
