import { DriveErrors, ERROR_MESSAGES, FOLDER_KIND, type Locale } from '@cumulus/protocol'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import { aFolder, aResource, aTask, driveError, FakeDriveApi } from '../drive/fake-drive-api'
import { PENDING_DOWNLOAD_LINK_KEY } from '../routes/thunder-pending-link'
import { PREVIEW_LINKS_PER_CALL } from './add-download'
import { OfflineDownloads } from './offline-downloads'
import { TASK_POLL_MS } from './use-offline-tasks'

const MAGNET = 'magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn=debian'

function show(api: FakeDriveApi, locale: Locale = 'en-US') {
  return renderPage(<OfflineDownloads api={api} />, { path: '/thunder', locale })
}

const rows = () => screen.queryAllByTestId('task-row')
const row = (name: string) => rows().find((r) => within(r).queryAllByText(name).length > 0)!

async function pasteLinks(text: string, label = 'Download links') {
  const box = screen.getByLabelText(label)
  await userEvent.click(box)
  await userEvent.paste(text)
}

afterEach(() => {
  vi.useRealTimers()
})

describe('Adding downloads', () => {
  it('previews a magnet link’s torrent tree, all files chosen, and sends only the files left chosen', async () => {
    const api = new FakeDriveApi()
    const tree = aResource({ name: 'Debian', meta: { url: MAGNET, icon_link: '', status: 'OK' } }, [
      aResource({ id: '0', name: 'debian.iso', file_size: String(3 * 1024 ** 3) }),
      aResource({ name: 'docs', is_dir: true, file_count: 2, file_size: '3072' }, [aResource({ id: '1', name: 'README', file_size: '1024' }), aResource({ id: '2', name: 'CHANGES', file_size: '2048' })]),
    ])
    api.previews.set(MAGNET, tree)
    show(api)
    await pasteLinks(MAGNET)
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }))

    const preview = await screen.findByTestId('preview')
    expect(api.callsOf('previewResources')).toEqual([[[MAGNET]]])
    expect(within(preview).getByText('3 files')).toBeDefined()
    const tree3 = within(preview).getByRole('group', { name: 'Files in Debian' })
    const boxes = within(tree3).getAllByRole('checkbox') as HTMLInputElement[]
    expect(boxes.every((box) => box.checked)).toBe(true)
    expect(within(preview).getByTestId('preview-selected').textContent).toBe('3 files selected, 3\u00a0GiB')

    // Unchoose the folder "docs": both its files go; the big file stays.
    await userEvent.click(within(tree3).getByRole('checkbox', { name: /^docs/ }))
    expect(within(preview).getByTestId('preview-selected').textContent).toBe('1 file selected, 3\u00a0GiB')
    // Choose one file back: the folder is mixed.
    await userEvent.click(within(tree3).getByRole('checkbox', { name: /^CHANGES/ }))
    expect(within(tree3).getByRole('checkbox', { name: /^docs/ }).getAttribute('aria-checked')).toBe('mixed')
    expect(within(tree3).getByRole('checkbox', { name: /^Select all/ }).getAttribute('aria-checked')).toBe('mixed')

    await userEvent.click(screen.getByRole('button', { name: 'Add 1 download' }))
    await waitFor(() => expect(api.callsOf('createOfflineTask')).toEqual([[{ url: MAGNET, fileIndexes: ['0', '2'] }]]))
    expect(await screen.findByText('1 download added')).toBeDefined()
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(within(row('Debian')).getByTestId('task-phase').textContent).toBe('Waiting')
  })

  it('uploads a picked .torrent to the download folder, previews it by id and adds it with the chosen folder', async () => {
    const downloads = aFolder({ name: 'Downloads', folder_type: 'DOWNLOAD' })
    const target = aFolder({ name: 'Linux' })
    const api = new FakeDriveApi([downloads, target])
    show(api)
    const file = new File(['d8:announce'], 'ubuntu.torrent', { type: 'application/x-bittorrent' })
    await userEvent.upload(screen.getByTestId('torrent-input'), file)
    expect(screen.getByTestId('torrent-chosen').textContent).toBe('Torrent file: ubuntu.torrent')
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }))

    await waitFor(() => expect(api.uploads).toHaveLength(1))
    expect(api.uploads[0]!.input).toMatchObject({ name: 'ubuntu.torrent', parentId: downloads.id })
    const stored = api.uploads[0]!.finish()
    api.previews.set(stored.id, aResource({ name: 'Ubuntu' }, [aResource({ id: '0', name: 'ubuntu.iso', file_size: '4096' })]))

    const preview = await screen.findByTestId('preview')
    expect(api.callsOf('previewResources')).toEqual([[{ torrentFileId: stored.id }]])
    expect(within(preview).getByTestId('target-folder').textContent).toContain('Downloads')

    await userEvent.click(within(preview).getByRole('button', { name: 'Change folder' }))
    const picker = await screen.findByTestId('folder-picker')
    await userEvent.click(await within(picker).findByRole('button', { name: 'Open Linux' }))
    await userEvent.click(within(picker).getByRole('button', { name: 'Save here' }))
    await waitFor(() => expect(within(preview).getByTestId('target-folder').textContent).toContain('Linux'))

    await userEvent.click(screen.getByRole('button', { name: 'Add 1 download' }))
    await waitFor(() => expect(api.callsOf('createOfflineTask')).toEqual([[{ url: '', torrentFileId: stored.id, fileIndexes: ['0'], parentId: target.id }]]))
  })

  it('refuses a file that is not a torrent, and a bad line names its line', async () => {
    show(new FakeDriveApi())
    fireEvent.drop(screen.getByTestId('add-download'), { dataTransfer: { types: ['Files'], files: [new File(['x'], 'movie.mp4')] } })
    expect(screen.getByRole('alert').textContent).toBe('Only .torrent files can be added here.')
    await pasteLinks('https://example.org/a.zip\nmailto:anna@example.org')
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }))
    expect(screen.getByRole('alert').textContent).toBe('Line 2: This kind of link is not supported. Use a web, magnet or Thunder link.')
  })

  // Regression: only the first bad line was named; fixing it revealed the next one.
  it('names every bad line, five at most, and counts the rest', async () => {
    show(new FakeDriveApi())
    const lines = ['https://example.org/a.zip', 'ftp://example.org/b.zip', 'https://example.org/c.zip', 'ftp://example.org/d', 'ftp://example.org/e', 'ftp://example.org/f', 'ftp://example.org/g', 'ftp://example.org/h']
    fireEvent.change(screen.getByLabelText('Download links'), { target: { value: lines.join('\n') } })
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }))
    const unsupported = 'This kind of link is not supported. Use a web, magnet or Thunder link.'
    expect(screen.getByRole('alert').textContent).toBe([2, 4, 5, 6, 7].map((line) => `Line ${line}: ${unsupported}`).concat('1 more line has a problem.').join('\n'))

    fireEvent.change(screen.getByLabelText('Download links'), { target: { value: 'ftp://example.org/b.zip\nhttps://example.org/a.zip\nftp://example.org/d' } })
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }))
    expect(screen.getByRole('alert').textContent).toBe(`Line 1: ${unsupported}\nLine 3: ${unsupported}`)
    expect(document.activeElement).toBe(screen.getByLabelText('Download links'))
  })

  // Regression: the page scrolled the preview's heading under the sticky header and the focus
  // fell to <body> with the Preview button.
  it('moves the focus to the preview’s heading once it shows', async () => {
    show(new FakeDriveApi())
    await pasteLinks('https://example.org/a.zip')
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }))
    const heading = await screen.findByRole('heading', { name: 'Check before adding' })
    await waitFor(() => expect(document.activeElement).toBe(heading))
    expect(heading.className).toContain('scroll-mt-28')
  })

  // Regression: the page took 50 links in one preview call, but the server previews at most 20
  // a call and refused the whole call with invalid_argument.
  it('previews more links than the server takes in one call in several calls, in order', async () => {
    const api = new FakeDriveApi()
    const links = Array.from({ length: 45 }, (_, i) => `https://example.org/part-${i + 1}.bin`)
    show(api)
    fireEvent.change(screen.getByLabelText('Download links'), { target: { value: links.join('\n') } })
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }))
    const preview = await screen.findByTestId('preview')
    expect(api.callsOf('previewResources').map(([sent]) => (sent as string[]).length)).toEqual([PREVIEW_LINKS_PER_CALL, PREVIEW_LINKS_PER_CALL, 5])
    expect(within(preview).getAllByTestId('preview-item').map((item) => item.dataset.name)).toEqual(links.map((link) => link.split('/').pop()))
    expect(screen.getByRole('button', { name: 'Add 45 downloads' })).toBeDefined()
  })

  it('shows a refused link’s reason in the page’s language and offers nothing to add', async () => {
    const api = new FakeDriveApi()
    api.previews.set('http://10.0.0.1/secret', aResource({ name: 'secret', meta: { url: 'http://10.0.0.1/secret', icon_link: '', status: 'permission_denied' } }))
    show(api, 'ko')
    await pasteLinks('http://10.0.0.1/secret', '다운로드 링크')
    await userEvent.click(screen.getByRole('button', { name: '미리 보기' }))
    const refusal = await screen.findByTestId('preview-refusal')
    await waitFor(() => expect(refusal.textContent).toBe(ERROR_MESSAGES.ko.permission_denied))
    expect(screen.getByText('이 링크는 다운로드할 수 없습니다.')).toBeDefined()
    expect((screen.getByRole('button', { name: '추가할 항목 없음' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('puts the link kept before sign-in in the box and forgets it once added', async () => {
    localStorage.setItem(PENDING_DOWNLOAD_LINK_KEY, 'https://example.org/a.zip')
    const api = new FakeDriveApi()
    api.known.add('https://example.org/a.zip')
    show(api)
    expect(await screen.findByDisplayValue('https://example.org/a.zip')).toBeDefined()
    expect(screen.getByText('The link you pasted before signing in is in the box.')).toBeDefined()
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Add 1 download' }))
    // Instant completion: the content was known, so the file is there at once.
    expect(await screen.findByText('“a.zip” was already known, so it is in your drive now.')).toBeDefined()
    expect(localStorage.getItem(PENDING_DOWNLOAD_LINK_KEY)).toBeNull()
  })

  // Regression: four links already known made four toasts, stacked over half a phone's screen.
  it('sums up the downloads that were already known in one toast', async () => {
    const api = new FakeDriveApi()
    const links = ['https://example.org/a.zip', 'https://example.org/b.zip', 'https://example.org/c.zip']
    for (const link of links) api.known.add(link)
    show(api)
    fireEvent.change(screen.getByLabelText('Download links'), { target: { value: links.join('\n') } })
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Add 3 downloads' }))
    expect(await screen.findByText('3 downloads were already known, so they are in your drive now.')).toBeDefined()
    expect(screen.queryByText(/“.\.zip” was already known/)).toBeNull()
  })

  it('downloads into the folder the address names (the drive’s “+” menu), and keeps the default for one that is not a live folder', async () => {
    const downloads = aFolder({ name: 'Downloads', folder_type: 'DOWNLOAD' })
    const films = aFolder({ name: 'Films' })
    const binned = aFolder({ name: 'Old', trashed: true })
    const api = new FakeDriveApi([downloads, films, binned])
    const view = renderPage(<OfflineDownloads api={api} />, { path: '/thunder', search: `?folder=${films.id}`, locale: 'ms' })
    // The box has the focus, and the form says where the downloads go before any preview.
    await waitFor(() => expect(screen.getByTestId('form-target-folder').textContent).toContain('Films'))
    expect(document.activeElement).toBe(screen.getByLabelText('Pautan muat turun'))
    fireEvent.change(screen.getByLabelText('Pautan muat turun'), { target: { value: 'https://example.org/a.zip' } })
    await userEvent.click(screen.getByRole('button', { name: 'Pratonton' }))
    expect((await screen.findByTestId('target-folder')).textContent).toContain('Films')
    await userEvent.click(screen.getByRole('button', { name: 'Tambah 1 muat turun' }))
    await waitFor(() => expect(api.callsOf('createOfflineTask')).toEqual([[{ url: 'https://example.org/a.zip', parentId: films.id }]]))
    view.unmount()

    for (const folder of [binned.id, 'no-such-folder', '../x']) {
      const again = renderPage(<OfflineDownloads api={api} />, { path: '/thunder', search: `?folder=${encodeURIComponent(folder)}` })
      await waitFor(() => expect(api.callsOf('list').length).toBeGreaterThan(0))
      await act(async () => {})
      expect(screen.queryByTestId('form-target-folder')).toBeNull()
      again.unmount()
    }
  })

  it('says why an add was refused (the plan’s daily limit)', async () => {
    const api = new FakeDriveApi()
    api.failures.set('createOfflineTask', driveError(DriveErrors.task_daily_create_limit_vip))
    show(api)
    await pasteLinks('https://example.org/a.zip')
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Add 1 download' }))
    expect(await screen.findByText(`“a.zip” was not added: ${ERROR_MESSAGES['en-US'].task_daily_create_limit_vip}`)).toBeDefined()
    expect(screen.getByTestId('preview')).toBeDefined()
  })
})

describe('The task list', () => {
  it('shows progress, size and speed, polls while a task runs and stops when all are done', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const api = new FakeDriveApi()
    const task = aTask({ name: 'ubuntu.iso', phase: 'PHASE_TYPE_RUNNING', progress: 40, file_size: String(1024 ** 3), params: { url: 'https://x/ubuntu.iso', predict_speed: String(2 * 1024 ** 2), parent_id: 'dl1' } })
    api.tasks = [task]
    api.offlineQuota = { dailyLimit: 10, dailyUsage: 3, runningLimit: 2, runningUsage: 1 }
    show(api)

    await waitFor(() => expect(rows()).toHaveLength(1))
    const bar = within(row('ubuntu.iso')).getByRole('progressbar', { name: 'Progress of ubuntu.iso' })
    expect(bar.getAttribute('aria-valuenow')).toBe('40')
    expect(within(row('ubuntu.iso')).getByTestId('task-speed').textContent).toBe('2\u00a0MiB/s')
    expect(within(row('ubuntu.iso')).getByTestId('task-size').textContent).toBe('410\u00a0MiB of 1\u00a0GiB')
    await waitFor(() => expect(screen.getByTestId('offline-counts').textContent).toContain('Today: 3 of 10 downloads'))
    expect(screen.getByTestId('offline-counts').textContent).toContain('Running: 1 of 2')

    const lists = () => api.callsOf('listTasks').length
    const before = lists()
    api.updateTask(task.id, { progress: 80 })
    await act(() => vi.advanceTimersByTimeAsync(TASK_POLL_MS))
    await waitFor(() => expect(within(row('ubuntu.iso')).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('80'))
    expect(lists()).toBe(before + 1)
    expect(screen.getByTestId('tasks-announcer').textContent).toBe('ubuntu.iso: 75%')

    const abouts = api.callsOf('about').length
    api.updateTask(task.id, { phase: 'PHASE_TYPE_COMPLETE', progress: 100, file_id: 'f1' })
    api.offlineQuota = { dailyLimit: 10, dailyUsage: 3, runningLimit: 2, runningUsage: 0 }
    await act(() => vi.advanceTimersByTimeAsync(TASK_POLL_MS))
    await waitFor(() => expect(within(row('ubuntu.iso')).getByTestId('task-phase').textContent).toBe('Done'))
    // The download ended: the plan's counts are read again (they said "Running: 1 of 2" until a reload).
    await waitFor(() => expect(screen.getByTestId('offline-counts').textContent).toContain('Running: 0 of 2'))
    expect(api.callsOf('about').length).toBe(abouts + 1)
    expect(screen.getByTestId('tasks-announcer').textContent).toBe('ubuntu.iso: done')
    expect(within(row('ubuntu.iso')).getByRole('link', { name: 'Open in drive' }).getAttribute('href')).toBe('/drive/dl1')

    // Nothing is waiting or running any more: no further reads.
    const settled = lists()
    await act(() => vi.advanceTimersByTimeAsync(TASK_POLL_MS * 5))
    expect(lists()).toBe(settled)
  })

  it('does not poll while the tab is hidden, and reads once when it comes back', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const api = new FakeDriveApi()
    api.tasks = [aTask({ name: 'a.zip', phase: 'PHASE_TYPE_PENDING' })]
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(1))
    const hidden = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden')
    act(() => void document.dispatchEvent(new Event('visibilitychange')))
    const before = api.callsOf('listTasks').length
    await act(() => vi.advanceTimersByTimeAsync(TASK_POLL_MS * 4))
    expect(api.callsOf('listTasks').length).toBe(before)
    hidden.mockReturnValue('visible')
    act(() => void document.dispatchEvent(new Event('visibilitychange')))
    await waitFor(() => expect(api.callsOf('listTasks').length).toBe(before + 1))
    hidden.mockRestore()
  })

  it('retries a failed task and shows its error in words', async () => {
    const api = new FakeDriveApi()
    const failed = aTask({ name: 'big.iso', phase: 'PHASE_TYPE_ERROR', message: 'file_space_not_enough' })
    api.tasks = [failed]
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(1))
    await waitFor(() => expect(within(row('big.iso')).getByTestId('task-error').textContent).toBe(ERROR_MESSAGES['en-US'].file_space_not_enough))
    await userEvent.click(within(row('big.iso')).getByRole('button', { name: 'Retry' }))
    expect(api.callsOf('retryTask')).toEqual([[failed.id]])
    await waitFor(() => expect(within(row('big.iso')).getByTestId('task-phase').textContent).toBe('Waiting'))
    expect(await screen.findByText('“big.iso” will be downloaded again')).toBeDefined()
  })

  it('shows a failure reason in the page’s language, and an unknown one as it is', async () => {
    const api = new FakeDriveApi()
    api.tasks = [aTask({ name: 'a.iso', phase: 'PHASE_TYPE_ERROR', message: 'file_space_not_enough' }), aTask({ name: 'b.iso', phase: 'PHASE_TYPE_ERROR', message: 'tracker_gone' })]
    show(api, 'zh-CN')
    await waitFor(() => expect(rows()).toHaveLength(2))
    await waitFor(() => expect(within(row('a.iso')).getByTestId('task-error').textContent).toBe(ERROR_MESSAGES['zh-CN'].file_space_not_enough))
    expect(within(row('b.iso')).getByTestId('task-error').textContent).toBe('下载失败（tracker_gone）。')
    expect(within(row('a.iso')).getByTestId('task-phase').textContent).toBe('失败')
  })

  it('cancels a running task, deleting its files when asked', async () => {
    const api = new FakeDriveApi()
    const running = aTask({ name: 'movie.mkv', phase: 'PHASE_TYPE_RUNNING', progress: 10 })
    api.tasks = [running]
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(1))
    await userEvent.click(within(row('movie.mkv')).getByRole('button', { name: 'Cancel' }))
    const dialog = await screen.findByRole('dialog', { name: 'Cancel “movie.mkv”?' })
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Also delete the downloaded files' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel download' }))
    await waitFor(() => expect(rows()).toHaveLength(0))
    expect(api.callsOf('deleteTasks')).toEqual([[[running.id], { deleteFiles: true }]])
    expect(await screen.findByText('“movie.mkv” cancelled')).toBeDefined()
    expect(screen.getByTestId('tasks-empty')).toBeDefined()
  })

  // Regression: a download that finished while "Cancel download" was open was deleted with its
  // files when the user confirmed with "Also delete the downloaded files" ticked.
  it('withdraws the cancel question when the download finishes behind it, deleting nothing', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const api = new FakeDriveApi()
    const running = aTask({ name: 'clip.mp4', phase: 'PHASE_TYPE_RUNNING', progress: 90 })
    api.tasks = [running]
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(1))
    await userEvent.click(within(row('clip.mp4')).getByRole('button', { name: 'Cancel' }))
    const dialog = await screen.findByRole('dialog', { name: 'Cancel “clip.mp4”?' })
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Also delete the downloaded files' }))

    api.updateTask(running.id, { phase: 'PHASE_TYPE_COMPLETE', progress: 100, file_id: 'f1' })
    await act(() => vi.advanceTimersByTimeAsync(TASK_POLL_MS))
    await waitFor(() => expect(within(row('clip.mp4')).getByTestId('task-phase').textContent).toBe('Done'))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(api.callsOf('deleteTasks')).toEqual([])
    // The focus is back on the row, on what its Cancel button became.
    await waitFor(() => expect(document.activeElement).toBe(within(row('clip.mp4')).getByRole('button', { name: 'Remove' })))

    // Removing it now asks the remove question, which keeps the files unless told otherwise.
    await userEvent.click(within(row('clip.mp4')).getByRole('button', { name: 'Remove' }))
    const removal = await screen.findByRole('dialog', { name: 'Remove “clip.mp4” from the list?' })
    expect((within(removal).getByRole('checkbox', { name: 'Also delete the downloaded files' }) as HTMLInputElement).checked).toBe(false)
  })

  it('withdraws the cancel question when the task leaves the list, and focuses the list’s heading', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const api = new FakeDriveApi()
    const waiting = aTask({ name: 'a.zip', phase: 'PHASE_TYPE_PENDING' })
    api.tasks = [waiting, aTask({ name: 'b.zip', phase: 'PHASE_TYPE_RUNNING' })]
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(2))
    await userEvent.click(within(row('a.zip')).getByRole('button', { name: 'Cancel' }))
    await screen.findByRole('dialog', { name: 'Cancel “a.zip”?' })

    // Removed elsewhere (another tab).
    api.tasks = api.tasks.filter((task) => task.id !== waiting.id)
    await act(() => vi.advanceTimersByTimeAsync(TASK_POLL_MS))
    await waitFor(() => expect(rows()).toHaveLength(1))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your downloads' })))
    expect(api.callsOf('deleteTasks')).toEqual([])
  })

  it('removes a finished task but keeps its files by default; a folder opens itself', async () => {
    const api = new FakeDriveApi()
    const done = aTask({ name: 'Debian', phase: 'PHASE_TYPE_COMPLETE', progress: 100, file_id: 'fold1', reference_resource: { kind: FOLDER_KIND, id: 'fold1', name: 'Debian', size: '0', mime_type: '', thumbnail_link: '' } })
    api.tasks = [done]
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(within(row('Debian')).getByRole('link', { name: 'Open in drive' }).getAttribute('href')).toBe('/drive/fold1')
    await userEvent.click(within(row('Debian')).getByRole('button', { name: 'Remove' }))
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(api.callsOf('deleteTasks')).toEqual([[[done.id], { deleteFiles: false }]]))
  })

  it('says when there are no downloads yet', async () => {
    show(new FakeDriveApi())
    expect(await screen.findByText('No downloads yet')).toBeDefined()
  })
})
