import { describe, expect, it } from 'vitest'
import { UnexpectedReplyError } from '../drive/drive-replies'
import { parseRetriedTask, parseUnpackProgress, parseUnpackStart } from './unpack-replies'

describe('parseUnpackStart', () => {
  it('reads a started unpack', () => {
    expect(parseUnpackStart({ status: 'OK', status_text: '', task_id: 't1', files_num: 3, redirect_link: '/decompress/f1?task_id=t1' })).toEqual({
      status: 'OK',
      statusText: '',
      taskId: 't1',
      fileCount: 3,
    })
  })

  it('reads a refusal, which has no task', () => {
    expect(parseUnpackStart({ status: 'NEED_MORE_QUOTA', status_text: 'not enough space', task_id: '', files_num: 0, redirect_link: '' })).toEqual({
      status: 'NEED_MORE_QUOTA',
      statusText: 'not enough space',
      taskId: '',
      fileCount: 0,
    })
  })

  it('refuses an OK without a task to follow, and a reply without a status', () => {
    expect(() => parseUnpackStart({ status: 'OK', task_id: '' })).toThrow(UnexpectedReplyError)
    expect(() => parseUnpackStart({ task_id: 't1' })).toThrow(UnexpectedReplyError)
    expect(() => parseUnpackStart([])).toThrow(UnexpectedReplyError)
  })

  it('leaves an unreadable file count unknown', () => {
    expect(parseUnpackStart({ status: 'OK', task_id: 't1', files_num: '3' }).fileCount).toBeNull()
    expect(parseUnpackStart({ status: 'OK', task_id: 't1', files_num: -1 }).fileCount).toBeNull()
  })
})

const running = { progress: 42.7, phase: 'PHASE_TYPE_RUNNING', file_id: 'd1', task_size: '3000000', task_size_completed: '1281000', expires_in: 1, error_description: '' }

describe('parseUnpackProgress', () => {
  it('reads a running task with its sizes sent as strings', () => {
    expect(parseUnpackProgress(running)).toEqual({ phase: 'PHASE_TYPE_RUNNING', percent: 42, folderId: 'd1', totalBytes: 3_000_000, doneBytes: 1_281_000, errorDescription: '' })
  })

  it('shows 100 % only for a complete task, whatever the number says', () => {
    expect(parseUnpackProgress({ ...running, progress: 100 }).percent).toBe(99)
    expect(parseUnpackProgress({ ...running, progress: 99.9 }).percent).toBe(99)
    expect(parseUnpackProgress({ ...running, phase: 'PHASE_TYPE_COMPLETE', progress: 97 }).percent).toBe(100)
  })

  it('keeps the percent and the bytes within their bounds', () => {
    expect(parseUnpackProgress({ ...running, progress: -5 }).percent).toBe(0)
    expect(parseUnpackProgress({ ...running, progress: Number.NaN }).percent).toBe(0)
    expect(parseUnpackProgress({ ...running, task_size_completed: '9000000' }).doneBytes).toBe(3_000_000)
  })

  it('leaves sizes it cannot read unknown', () => {
    const reply = parseUnpackProgress({ ...running, task_size: '', task_size_completed: '1.5' })
    expect([reply.totalBytes, reply.doneBytes]).toEqual([null, null])
  })

  it('keeps the server’s reason for a failed task', () => {
    expect(parseUnpackProgress({ ...running, phase: 'PHASE_TYPE_ERROR', error_description: 'disk full' })).toMatchObject({ phase: 'PHASE_TYPE_ERROR', errorDescription: 'disk full' })
  })

  it('refuses a reply without a known phase', () => {
    expect(() => parseUnpackProgress({ ...running, phase: 'DONE' })).toThrow(UnexpectedReplyError)
    expect(() => parseUnpackProgress(null)).toThrow(UnexpectedReplyError)
  })
})

describe('parseRetriedTask', () => {
  it('accepts the task document and refuses anything else', () => {
    expect(parseRetriedTask({ task: { id: 't1' } })).toBeNull()
    expect(() => parseRetriedTask('ok')).toThrow(UnexpectedReplyError)
  })
})
