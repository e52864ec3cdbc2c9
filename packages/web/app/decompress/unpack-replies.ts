import { type Phase, PHASES } from '@cumulus/protocol'
import { UnexpectedReplyError } from '../drive/drive-replies'

/**
 * Readers for the unpack calls' replies (protocol `DecompressReply`, `DecompressProgress`). As
 * with the other drive replies, a reply that is not the document expected throws, and shows as
 * an error, never as made-up progress.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `POST /decompress/v1/decompress` as the page uses it. */
export interface UnpackStart {
  /** OK, PASS_WORD_EMPTY, PASS_WORD_ERROR, NOT_SUPPORTED, FILE_TOO_LARGE, NEED_MORE_QUOTA (HTTP 200 for each). */
  status: string
  /** The server's own words for the status (English). */
  statusText: string
  /** The task unpacking the files; never '' when `status` is OK. */
  taskId: string
  /** How many files the task unpacks; null when the server did not say. */
  fileCount: number | null
}

export function parseUnpackStart(body: unknown): UnpackStart {
  if (!isRecord(body) || typeof body.status !== 'string' || body.status === '') throw new UnexpectedReplyError('no unpack status')
  const taskId = typeof body.task_id === 'string' ? body.task_id : ''
  if (body.status === 'OK' && taskId === '') throw new UnexpectedReplyError('an unpack started without a task')
  return {
    status: body.status,
    statusText: typeof body.status_text === 'string' ? body.status_text : '',
    taskId,
    fileCount: typeof body.files_num === 'number' && Number.isInteger(body.files_num) && body.files_num >= 0 ? body.files_num : null,
  }
}

/** `GET /decompress/v1/progress` as the page shows it. */
export interface UnpackProgress {
  phase: Phase
  /** Whole percent, 0 to 100; 100 only once the task is complete. */
  percent: number
  /** The folder the files go into ('' until the server has made it, or the top of the drive). */
  folderId: string
  /** Bytes to unpack, and unpacked so far (never more than the total); null when not known. */
  totalBytes: number | null
  doneBytes: number | null
  /** Why the task failed, in the server's words (English); '' otherwise. */
  errorDescription: string
}

const PERCENT_MAX = 100

/** A byte count sent as a string of digits (or a number); null when it is neither. */
function bytesOf(value: unknown): number | null {
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value)
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value
  return null
}

function isPhase(value: unknown): value is Phase {
  return (PHASES as readonly unknown[]).includes(value)
}

export function parseUnpackProgress(body: unknown): UnpackProgress {
  if (!isRecord(body) || !isPhase(body.phase)) throw new UnexpectedReplyError('no unpack phase')
  const phase = body.phase
  const reported = typeof body.progress === 'number' && Number.isFinite(body.progress) ? body.progress : 0
  // Rounded down: a task at 99.6 % is not done, and 100 % is shown only when it is.
  const percent = phase === 'PHASE_TYPE_COMPLETE' ? PERCENT_MAX : Math.min(PERCENT_MAX - 1, Math.max(0, Math.floor(reported)))
  const totalBytes = bytesOf(body.task_size)
  const done = bytesOf(body.task_size_completed)
  return {
    phase,
    percent,
    folderId: typeof body.file_id === 'string' ? body.file_id : '',
    totalBytes,
    doneBytes: done === null ? null : totalBytes === null ? done : Math.min(done, totalBytes),
    errorDescription: typeof body.error_description === 'string' ? body.error_description : '',
  }
}

/** `POST /drive/v1/task` (a retry) answers `{task}`, or the task itself on some servers. */
export function parseRetriedTask(body: unknown): null {
  if (!isRecord(body)) throw new UnexpectedReplyError('no task')
  return null
}
