import { DriveErrors, ERROR_MESSAGES, FOLDER_KIND } from '@cumulus/protocol'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import en from '../locales/en-US/index'
import zhCN from '../locales/zh-CN/index'
import { aShare, driveError, FakeDriveApi } from './fake-drive-api'
import { shareExpiry } from './share-expiry'
import { SharesPage } from './shares-page'
import { SHARE_PAGE_SIZE } from './use-share-list'

const texts = en.drive.share

function show(api: FakeDriveApi, locale: 'en-US' | 'zh-CN' = 'en-US') {
  return renderPage(<SharesPage api={api} />, { locale, path: '/drive/shares', routes: { '/drive': <p>My drive page</p> } })
}

const rows = () => screen.queryAllByTestId('share-row')
const row = (title: string) => rows().find((r) => within(r).getByTestId('share-title').textContent === title)!

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard')
})

describe('shareExpiry', () => {
  it('reads the time left in whole days, then hours, then minutes, rounded up', () => {
    const ok = { share_status: 'OK' as const, expiration_at: '2026-01-08T12:00:00.000Z' }
    expect(shareExpiry({ ...ok, expiration_left_seconds: String(7 * 86_400 - 1) })).toEqual({ kind: 'left', value: 7, unit: 'day' })
    expect(shareExpiry({ ...ok, expiration_left_seconds: '86400' })).toEqual({ kind: 'left', value: 1, unit: 'day' })
    expect(shareExpiry({ ...ok, expiration_left_seconds: '86399' })).toEqual({ kind: 'left', value: 24, unit: 'hour' })
    expect(shareExpiry({ ...ok, expiration_left_seconds: '3599' })).toEqual({ kind: 'left', value: 60, unit: 'minute' })
    expect(shareExpiry({ ...ok, expiration_left_seconds: '1' })).toEqual({ kind: 'left', value: 1, unit: 'minute' })
    expect(shareExpiry({ ...ok, expiration_left_seconds: '0' })).toEqual({ kind: 'expired' })
    expect(shareExpiry({ share_status: 'OK', expiration_at: null, expiration_left_seconds: '-1' })).toEqual({ kind: 'never' })
    expect(shareExpiry({ share_status: 'EXPIRED', expiration_at: '2026-01-01T00:00:00.000Z', expiration_left_seconds: '0' })).toEqual({ kind: 'expired' })
  })
})

describe('SharesPage', () => {
  it('lists each share with its title, icon, dates, pass code and counts', async () => {
    const api = new FakeDriveApi()
    api.shares = [
      aShare({ title: 'Holiday', file_kind: FOLDER_KIND, pass_code: 'ab12', expiration_at: '2026-01-08T12:00:00.000Z', expiration_left_seconds: String(6 * 86_400 + 5), view_count: '3', restore_count: '1', download_count: '0', file_num: '1' }),
      aShare({ title: 'notes.txt and 2 more', file_num: '3', view_count: '1', restore_count: '0', download_count: '2' }),
    ]
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(2))
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(texts.page.title)
    expect(screen.getByRole('list', { name: texts.page.listLabel })).toBeDefined()
    const holiday = row('Holiday')
    expect(within(holiday).getByTestId('share-expiry').textContent).toBe('Expires in 7 days')
    expect(within(holiday).getByTestId('share-pass-code').textContent).toBe('Pass code: ab12')
    expect(within(holiday).getByRole('list', { name: texts.list.activity }).textContent).toBe('3 views1 save0 downloads')
    const notes = row('notes.txt and 2 more')
    expect(within(notes).getByTestId('share-expiry').textContent).toBe(texts.list.neverExpires)
    expect(within(notes).getByText(texts.list.publicLink)).toBeDefined()
    expect(within(notes).getByText(/^3 items · Shared /)).toBeDefined()
    expect(within(notes).getByRole('link', { name: `${texts.list.open} ${texts.list.newTab}` }).getAttribute('target')).toBe('_blank')
    expect(screen.getByTestId('share-count').textContent).toBe('2 shares')
    expect(api.callsOf('listShares')).toEqual([[{ limit: SHARE_PAGE_SIZE }]])
  })

  it('says when a share expired or broke, in the server’s words, and offers only to remove it', async () => {
    const api = new FakeDriveApi()
    api.shares = [
      aShare({ title: 'Old', share_status: 'EXPIRED', share_status_text: 'This share has expired', expiration_at: '2026-01-01T00:00:00.000Z', expiration_left_seconds: '0' }),
      aShare({ title: 'Gone', share_status: 'DELETED', share_status_text: 'This share has been cancelled, or its files were deleted' }),
    ]
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(2))
    expect(within(row('Old')).getByTestId('share-status').textContent).toBe(texts.status.EXPIRED)
    expect(within(row('Old')).getByText('This share has expired')).toBeDefined()
    expect(within(row('Gone')).getByTestId('share-status').textContent).toBe(texts.status.DELETED)
    expect(within(row('Gone')).getByText('This share has been cancelled, or its files were deleted')).toBeDefined()
    expect(within(row('Gone')).queryByRole('button', { name: texts.list.copy })).toBeNull()
    expect(within(row('Gone')).getByRole('button', { name: texts.list.remove })).toBeDefined()
  })

  it('copies a share’s text and says so', async () => {
    const writeText = vi.fn(async (_text: string) => undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const api = new FakeDriveApi()
    const share = aShare({ title: 'Holiday', pass_code: 'ab12' })
    api.shares = [share]
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(1))
    await userEvent.click(within(row('Holiday')).getByRole('button', { name: texts.list.copy }))
    expect(writeText).toHaveBeenCalledWith(share.share_text)
    expect(await screen.findByText(texts.list.copiedWithCode)).toBeDefined()
  })

  it('cancels one share behind a confirmation, the focus on the heading after', async () => {
    const api = new FakeDriveApi()
    api.shares = [aShare({ title: 'Holiday' }), aShare({ title: 'Report' })]
    const holidayId = api.shares[0]!.share_id
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(2))
    await userEvent.click(within(row('Holiday')).getByRole('button', { name: texts.list.cancel }))
    const dialog = await screen.findByTestId('confirm-dialog')
    expect(within(dialog).getByRole('heading').textContent).toBe('Cancel the share “Holiday”?')
    // "Keep" closes without cancelling.
    await userEvent.click(within(dialog).getByRole('button', { name: texts.list.keep }))
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull())
    expect(api.callsOf('deleteShares')).toEqual([])

    await userEvent.click(within(row('Holiday')).getByRole('button', { name: texts.list.cancel }))
    await userEvent.click(within(await screen.findByTestId('confirm-dialog')).getByRole('button', { name: texts.list.cancelSelected.one }))
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(api.callsOf('deleteShares')).toEqual([[[holidayId]]])
    expect(api.shares.map((s) => s.title)).toEqual(['Report'])
    expect(await screen.findByText('Share “Holiday” cancelled')).toBeDefined()
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 })))
  })

  it('cancels the selected shares at once', async () => {
    const api = new FakeDriveApi()
    api.shares = [aShare({ title: 'A' }), aShare({ title: 'B' }), aShare({ title: 'C' })]
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(3))
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select A' }))
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select C' }))
    const bar = screen.getByRole('toolbar', { name: texts.page.selectionLabel })
    expect(within(bar).getByText('2 selected')).toBeDefined()
    await userEvent.click(within(bar).getByRole('button', { name: 'Cancel 2 shares' }))
    const dialog = await screen.findByTestId('confirm-dialog')
    expect(within(dialog).getByRole('heading').textContent).toBe('Cancel 2 shares?')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel 2 shares' }))
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(api.shares.map((s) => s.title)).toEqual(['B'])
    expect(await screen.findByText('2 shares cancelled')).toBeDefined()
    expect(screen.queryByRole('toolbar', { name: texts.page.selectionLabel })).toBeNull()
  })

  it('keeps the dialog open with the server’s refusal', async () => {
    const api = new FakeDriveApi()
    api.shares = [aShare({ title: 'A' })]
    api.failures.set('deleteShares', driveError(DriveErrors.file_not_found))
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(1))
    await userEvent.click(within(row('A')).getByRole('button', { name: texts.list.cancel }))
    const dialog = await screen.findByTestId('confirm-dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: texts.list.cancelSelected.one }))
    expect((await within(dialog).findByRole('alert')).textContent).toBe(ERROR_MESSAGES['en-US'].file_not_found)
    expect(rows()).toHaveLength(1)
  })

  it('reads page after page until the last', async () => {
    const api = new FakeDriveApi()
    api.shares = Array.from({ length: SHARE_PAGE_SIZE + 3 }, (_, index) => aShare({ title: `Share ${index}` }))
    show(api)
    await waitFor(() => expect(rows()).toHaveLength(SHARE_PAGE_SIZE))
    expect(screen.getByTestId('share-count').textContent).toBe('')
    await userEvent.click(screen.getByRole('button', { name: texts.page.showMore }))
    await waitFor(() => expect(rows()).toHaveLength(SHARE_PAGE_SIZE + 3))
    expect(api.callsOf('listShares')[1]).toEqual([{ limit: SHARE_PAGE_SIZE, pageToken: String(SHARE_PAGE_SIZE) }])
    expect(screen.queryByRole('button', { name: texts.page.showMore })).toBeNull()
    expect(screen.getByTestId('share-count').textContent).toBe(`${SHARE_PAGE_SIZE + 3} shares`)
  })

  it('shows the empty state with the way to the drive', async () => {
    show(new FakeDriveApi())
    expect(await screen.findByTestId('shares-empty')).toBeDefined()
    expect(screen.getByText(texts.page.emptyTitle)).toBeDefined()
    await userEvent.click(screen.getByRole('link', { name: texts.page.toDrive }))
    expect(await screen.findByText('My drive page')).toBeDefined()
  })

  it('shows a failed load with its reason and tries again', async () => {
    const api = new FakeDriveApi()
    api.shares = [aShare({ title: 'A' })]
    api.failures.set('listShares', driveError(DriveErrors.file_not_found))
    show(api)
    expect(await screen.findByText(texts.page.loadFailed)).toBeDefined()
    await userEvent.click(screen.getByRole('button', { name: en.drive.list.retry }))
    await waitFor(() => expect(rows()).toHaveLength(1))
  })

  it('speaks Simplified Chinese, counts included', async () => {
    const api = new FakeDriveApi()
    api.shares = [aShare({ title: '照片', pass_code: 'ab12', view_count: '5', expiration_at: '2026-01-02T12:00:00.000Z', expiration_left_seconds: '86400' })]
    show(api, 'zh-CN')
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(zhCN.drive.share.page.title)
    expect(within(row('照片')).getByText('浏览 5 次')).toBeDefined()
    expect(within(row('照片')).getByTestId('share-expiry').textContent).toBe('1天后过期')
  })
})
