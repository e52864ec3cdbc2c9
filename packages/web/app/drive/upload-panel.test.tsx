import { DriveErrors, ERROR_MESSAGES } from '@cumulus/protocol'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderPage } from '../../test/render'
import { pickedFromInput } from './collect-files'
import { driveError, FakeDriveApi } from './fake-drive-api'
import { UploadManager } from './upload-manager'
import { PHONE_MEDIA_QUERY, UploadPanel } from './upload-panel'

const MiB = 1024 * 1024

function aLocalFile(name: string, size: number, lastModified = 1_700_000_000_000): File {
  const file = new File([], name, { lastModified })
  // Sizes of many MiB without allocating them: the panel only reads `size`.
  Object.defineProperty(file, 'size', { value: size })
  return file
}

async function setUp(files: File[] = [], concurrency = 3) {
  const api = new FakeDriveApi()
  const manager = new UploadManager(api, {}, { concurrency })
  renderPage(<UploadPanel uploads={manager} />)
  if (files.length > 0) await act(() => manager.add(pickedFromInput(files), ''))
  return { api, manager }
}

const row = (name: string) => screen.getAllByTestId('upload-row').find((r) => r.dataset.name === name)!
// Sizes join their unit with a no-break space; the texts here are written with plain ones.
const statusOf = (name: string) => within(row(name)).getByTestId('upload-status').textContent?.replace(/\u00a0/g, ' ')

describe('UploadPanel', () => {
  it('is not shown while there is nothing to upload', async () => {
    await setUp()
    expect(screen.queryByTestId('upload-panel')).toBeNull()
  })

  it('lists each file with its progress, speed, and the totals in the header', async () => {
    const { api } = await setUp([aLocalFile('movie.mp4', 10 * MiB), aLocalFile('notes.txt', 2 * MiB)])
    act(() => api.uploads[0]!.progress(5 * MiB, 2 * MiB))
    expect(screen.getByTestId('upload-title').textContent).toBe('Uploading 2 items')
    expect(statusOf('movie.mp4')).toBe('5 MiB of 10 MiB · 2 MiB/s')
    const bar = within(row('movie.mp4')).getByRole('progressbar', { name: 'Upload of movie.mp4' })
    expect(bar.getAttribute('aria-valuenow')).toBe('50')
    // 7 MiB left at 2 MiB/s.
    expect(screen.getByText(/5 MiB of 12 MiB · 4 sec left/)).toBeDefined()
  })

  it('pauses, resumes and cancels one file', async () => {
    const { api } = await setUp([aLocalFile('a.bin', MiB), aLocalFile('b.bin', MiB)])
    await userEvent.click(within(row('a.bin')).getByRole('button', { name: 'Pause a.bin' }))
    expect(api.uploads[0]!.state).toBe('paused')
    expect(statusOf('a.bin')).toBe('Paused · 0 B of 1 MiB')
    await userEvent.click(within(row('a.bin')).getByRole('button', { name: 'Resume a.bin' }))
    expect(api.uploads[0]!.state).toBe('uploading')
    await userEvent.click(within(row('b.bin')).getByRole('button', { name: 'Cancel b.bin' }))
    expect(api.uploads[1]!.state).toBe('cancelled')
    expect(statusOf('b.bin')).toBe('Cancelled')
    expect(row('b.bin').dataset.status).toBe('cancelled')
  })

  it('pause all and resume all act on every running file', async () => {
    const { api } = await setUp([aLocalFile('a.bin', MiB), aLocalFile('b.bin', MiB)])
    await userEvent.click(screen.getByRole('button', { name: 'Pause all' }))
    expect(api.uploads.map((u) => u.state)).toEqual(['paused', 'paused'])
    expect(screen.getByTestId('upload-title').textContent).toBe('2 paused')
    await userEvent.click(screen.getByRole('button', { name: 'Resume all' }))
    expect(api.uploads.map((u) => u.state)).toEqual(['uploading', 'uploading'])
  })

  it('shows a failure in words (the catalogue text) with a retry button', async () => {
    const { api } = await setUp([aLocalFile('big.iso', 4 * MiB)])
    await act(async () => api.uploads[0]!.fail(driveError(DriveErrors.file_space_not_enough)))
    await waitFor(() => expect(statusOf('big.iso')).toBe(ERROR_MESSAGES['en-US'].file_space_not_enough))
    expect(screen.getByText(/1 failed/)).toBeDefined()
    await userEvent.click(within(row('big.iso')).getByRole('button', { name: 'Retry big.iso' }))
    expect(api.uploads).toHaveLength(2)
    expect(row('big.iso').dataset.status).toBe('uploading')
  })

  it('once everything is done, says so and can be closed', async () => {
    const { api } = await setUp([aLocalFile('a.txt', 100)])
    await act(async () => {
      api.uploads[0]!.finish()
    })
    await waitFor(() => expect(screen.getByTestId('upload-title').textContent).toBe('1 upload complete'))
    expect(statusOf('a.txt')).toBe('Uploaded')
    await userEvent.click(screen.getByRole('button', { name: 'Close uploads' }))
    expect(screen.queryByTestId('upload-panel')).toBeNull()
  })

  it('offers the uploads an earlier visit left unfinished and continues them with the files chosen again', async () => {
    const api = new FakeDriveApi()
    api.pending = [{ fingerprint: 'fp', name: 'holiday.mp4', size: 3 * MiB, lastModified: 42, parentId: 'videos' }]
    const manager = new UploadManager(api)
    await manager.loadPendingFromEarlier()
    renderPage(<UploadPanel uploads={manager} />)
    const earlier = screen.getByTestId('earlier-uploads')
    expect(within(earlier).getByText('holiday.mp4')).toBeDefined()
    expect(within(earlier).getByText('3 MiB')).toBeDefined()

    // A different file first: nothing matches, and the panel says so.
    const input = screen.getByTestId('resume-files-input')
    fireEvent.change(input, { target: { files: [aLocalFile('holiday.mp4', 3 * MiB, 41)] } })
    expect(await screen.findByText('None of the chosen files is one of the unfinished uploads.')).toBeDefined()
    expect(api.uploads).toHaveLength(0)

    fireEvent.change(input, { target: { files: [aLocalFile('holiday.mp4', 3 * MiB, 42)] } })
    await waitFor(() => expect(api.uploads.map((u) => [u.input.name, u.input.parentId])).toEqual([['holiday.mp4', 'videos']]))
    expect(screen.queryByTestId('earlier-uploads')).toBeNull()
    expect(row('holiday.mp4').dataset.status).toBe('uploading')
  })
})

describe('UploadPanel on a phone', () => {
  function phoneScreen(matches: boolean) {
    const original = window.matchMedia
    window.matchMedia = ((query: string) => ({ matches: matches && query === PHONE_MEDIA_QUERY, media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia
    return () => {
      window.matchMedia = original
    }
  }

  // Regression (issue 10): on a phone the panel covered 60% of the screen, rows included.
  it('collapses to its summary once uploads run, keeps the overall progress in view, and expands on request', async () => {
    const restore = phoneScreen(true)
    try {
      const api = new FakeDriveApi()
      const manager = new UploadManager(api, {}, { concurrency: 3 })
      const heights: number[] = []
      renderPage(<UploadPanel uploads={manager} onHeightChange={(height) => heights.push(height)} />)
      await act(() => manager.add(pickedFromInput([aLocalFile('movie.mp4', 10 * MiB)]), ''))
      act(() => api.uploads[0]!.progress(5 * MiB, 2 * MiB))
      const panel = screen.getByTestId('upload-panel')
      await waitFor(() => expect(panel.dataset.collapsed).toBe('true'))
      expect(screen.queryByRole('list', { name: 'Uploads' })).toBeNull()
      // The summary stays: what is uploading, how much of the total is sent.
      expect(screen.getByTestId('upload-title').textContent).toBe('Uploading 1 item')
      expect(panel.textContent?.replace(/\u00a0/g, ' ')).toContain('5 MiB of 10 MiB')
      await userEvent.click(screen.getByRole('button', { name: 'Expand uploads' }))
      expect(panel.dataset.collapsed).toBe('false')
      expect(screen.getByRole('list', { name: 'Uploads' })).toBeDefined()
      // A later file of the same run does not collapse it again.
      await act(() => manager.add(pickedFromInput([aLocalFile('b.bin', MiB)]), ''))
      expect(panel.dataset.collapsed).toBe('false')
      // The page was told the panel is there (the jsdom layout measures 0, so only that it reported).
      expect(heights.length).toBeGreaterThan(0)
    } finally {
      restore()
    }
  })

  it('stays expanded on a wide screen', async () => {
    const restore = phoneScreen(false)
    try {
      await setUp([aLocalFile('movie.mp4', 10 * MiB)])
      expect(screen.getByTestId('upload-panel').dataset.collapsed).toBe('false')
      expect(screen.getByRole('list', { name: 'Uploads' })).toBeDefined()
    } finally {
      restore()
    }
  })
})
