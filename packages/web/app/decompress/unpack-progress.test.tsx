import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import type { DriveCall, DriveViewState } from '../drive/drive-request'
import en from '../locales/en-US/index'
import { UnpackProgressPanel } from './unpack-progress'
import { UNPACK_POLL_MS, UNPACK_POLL_OFFLINE_MS } from './use-unpack-progress'

// The panel's calls go through the drive-request helper; here they reach a scripted server.
const send = vi.fn<(call: DriveCall, parse: (body: unknown) => unknown) => Promise<DriveViewState<unknown>>>()
vi.mock('../drive/drive-request', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../drive/drive-request')>()),
  useDriveCall: () => ({ send, ready: true }),
}))

const texts = en.drive.unpack.progress
const MiB = 1024 * 1024

function progressReply(phase: string, progress: number, extra: Record<string, unknown> = {}) {
  return { progress, phase, file_id: '', task_size: String(4 * MiB), task_size_completed: String(Math.round((4 * MiB * progress) / 100)), expires_in: 1, error_description: '', ...extra }
}

/** Answers progress reads from `replies` in turn (the last one again when they run out); other calls answer `{}`. */
function serve(replies: (object | DriveViewState<unknown>)[]) {
  let next = 0
  send.mockImplementation(async (call, parse) => {
    if (call.path !== '/decompress/v1/progress') return { status: 'ready', data: parse({ task: {} }) }
    const reply = replies[Math.min(next++, replies.length - 1)]!
    return 'status' in reply && !('phase' in reply) ? (reply as DriveViewState<unknown>) : { status: 'ready', data: parse(reply) }
  })
}

const progressReads = () => send.mock.calls.filter(([call]) => call.path === '/decompress/v1/progress')

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms)
  })
}

beforeEach(() => {
  send.mockReset()
  vi.useFakeTimers()
})

afterEach(() => {
  vi.useRealTimers()
})

describe('UnpackProgressPanel', () => {
  it('reads the progress once a second while the task runs, shows percent and bytes, and stops when it is complete', async () => {
    serve([progressReply('PHASE_TYPE_PENDING', 0), progressReply('PHASE_TYPE_RUNNING', 50), progressReply('PHASE_TYPE_COMPLETE', 100, { file_id: 'folder-9' })])
    renderPage(<UnpackProgressPanel taskId="t1" fileCount={3} onBack={() => undefined} />, { path: '/decompress/a1' })
    await advance(0)
    expect(progressReads().map(([call]) => call.query)).toEqual([{ task_id: 't1' }])
    expect(screen.getByRole('heading').textContent).toBe(texts.pending)
    expect(screen.getByText('3 files')).toBeDefined()

    await advance(UNPACK_POLL_MS)
    expect(progressReads()).toHaveLength(2)
    const bar = screen.getByRole('progressbar', { name: texts.label })
    expect(bar.getAttribute('aria-valuenow')).toBe('50')
    expect(screen.getByTestId('unpack-percent').textContent).toBe('50%')
    expect(screen.getByTestId('unpack-bytes').textContent).toBe('2\u00a0MiB of 4\u00a0MiB')
    expect(screen.getByRole('button', { name: texts.cancel })).toBeDefined()

    await advance(UNPACK_POLL_MS)
    expect(screen.getByRole('heading').textContent).toBe(texts.complete)
    expect(screen.getByRole('link', { name: texts.open }).getAttribute('href')).toBe('/drive/folder-9')
    expect(screen.queryByRole('button', { name: texts.cancel })).toBeNull()
    // Complete: no more reads.
    await advance(UNPACK_POLL_MS * 5)
    expect(progressReads()).toHaveLength(3)
  })

  it('shows the server’s reason under "Unpacking failed", and Retry asks for a retry of this decompress task and follows it again', async () => {
    serve([progressReply('PHASE_TYPE_ERROR', 40, { error_description: 'disk full' }), progressReply('PHASE_TYPE_RUNNING', 60)])
    renderPage(<UnpackProgressPanel taskId="t2" fileCount={null} onBack={() => undefined} />)
    await advance(0)
    expect(screen.getByRole('heading').textContent).toBe(texts.error)
    expect(screen.getByTestId('unpack-error').textContent).toBe('disk full')
    await advance(UNPACK_POLL_MS * 3)
    expect(progressReads()).toHaveLength(1)

    fireEvent.click(screen.getByRole('button', { name: texts.retry }))
    await advance(0)
    expect(send.mock.calls.map(([call]) => call).filter((call) => call.path === '/drive/v1/task')).toEqual([
      { method: 'POST', path: '/drive/v1/task', body: { type: 'decompress', create_type: 'RETRY', id: 't2' } },
    ])
    expect(progressReads()).toHaveLength(2)
    expect(screen.getByRole('heading').textContent).toBe(texts.running)
    await advance(UNPACK_POLL_MS)
    expect(progressReads()).toHaveLength(3)
  })

  it('cancels with DELETE /drive/v1/tasks and goes back', async () => {
    serve([progressReply('PHASE_TYPE_RUNNING', 10)])
    const onBack = vi.fn()
    renderPage(<UnpackProgressPanel taskId="t3" fileCount={null} onBack={onBack} />)
    await advance(0)
    fireEvent.click(screen.getByRole('button', { name: texts.cancel }))
    await advance(0)
    expect(send.mock.calls.map(([call]) => call).find((call) => call.method === 'DELETE')).toEqual({ method: 'DELETE', path: '/drive/v1/tasks', query: { task_ids: 't3' } })
    expect(onBack).toHaveBeenCalledWith('cancelled')
  })

  it('keeps reading, more slowly, while the server cannot be reached, and stops on any other failure', async () => {
    serve([{ status: 'offline' }, progressReply('PHASE_TYPE_RUNNING', 20), { status: 'error', message: 'boom' }])
    renderPage(<UnpackProgressPanel taskId="t4" fileCount={null} onBack={() => undefined} />)
    await advance(0)
    expect(screen.getByText(en.pages.drive.offline)).toBeDefined()
    await advance(UNPACK_POLL_MS)
    expect(progressReads()).toHaveLength(1)
    await advance(UNPACK_POLL_OFFLINE_MS - UNPACK_POLL_MS)
    expect(progressReads()).toHaveLength(2)
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('20')
    expect(screen.queryByText(en.pages.drive.offline)).toBeNull()

    await advance(UNPACK_POLL_MS)
    expect(progressReads()).toHaveLength(3)
    expect(screen.getByText('boom')).toBeDefined()
    await advance(UNPACK_POLL_OFFLINE_MS * 2)
    expect(progressReads()).toHaveLength(3)
    // "Try again" reads at once.
    fireEvent.click(screen.getByRole('button', { name: en.pages.drive.retry }))
    await advance(0)
    expect(progressReads()).toHaveLength(4)
  })
})
