import { DriveErrors, ERROR_MESSAGES } from '@cumulus/protocol'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import en from '../locales/en-US/index'
import ko from '../locales/ko/index'
import { aFile, aFolder, driveError, FakeDriveApi } from './fake-drive-api'
import { DEFAULT_EXPIRATION_DAYS, isValidPassCode, ShareDialog } from './share-dialog'

const texts = en.drive.share

function showDialog(files = [aFile({ name: 'report.pdf' })], { locale = 'en-US' as 'en-US' | 'ko', api = new FakeDriveApi(files) } = {}) {
  const onOpenChange = vi.fn()
  renderPage(<ShareDialog api={api} open onOpenChange={onOpenChange} files={files} />, { locale, routes: { '/drive/shares': <p>My shares page</p> } })
  return { api, files, onOpenChange }
}

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard')
})

describe('isValidPassCode', () => {
  it('takes 4 to 16 ASCII letters and digits, nothing else', () => {
    expect(['abcd', 'AB12', 'a'.repeat(16), '0000'].map(isValidPassCode)).toEqual([true, true, true, true])
    expect(['abc', 'a'.repeat(17), 'ab cd', 'abc!', 'ábcd', '한글코드', ''].map(isValidPassCode)).toEqual([false, false, false, false, false, false, false])
  })
})

describe('ShareDialog', () => {
  it('starts with a pass code and a week, and creates the share with them', async () => {
    const { api, files } = showDialog()
    expect(await screen.findByRole('heading', { name: 'Share “report.pdf”' })).toBeDefined()
    expect((screen.getByRole('radio', { name: new RegExp(texts.dialog.passCode) }) as HTMLInputElement).checked).toBe(true)
    expect((screen.getByRole('radio', { name: texts.dialog.randomCode }) as HTMLInputElement).checked).toBe(true)
    expect(DEFAULT_EXPIRATION_DAYS).toBe(7)
    expect((screen.getByRole('radio', { name: 'In 7 days' }) as HTMLInputElement).checked).toBe(true)
    // The four choices of SHARE_EXPIRATION_CHOICES, in order.
    expect(within(screen.getByRole('group', { name: texts.dialog.expiry })).getAllByRole('radio').map((radio) => radio.parentElement!.textContent)).toEqual(['In 1 day', 'In 7 days', 'In 30 days', 'Never'])

    await userEvent.click(screen.getByRole('button', { name: texts.dialog.create }))
    await screen.findByTestId('share-created')
    expect(api.callsOf('createShare')).toEqual([[{ fileIds: [files[0]!.id], passCode: true, expirationDays: 7 }]])
  })

  it('makes a public link that never expires for several items', async () => {
    const files = [aFolder({ name: 'Photos' }), aFile({ name: 'a.txt' })]
    const { api } = showDialog(files)
    expect(await screen.findByRole('heading', { name: 'Share 2 items' })).toBeDefined()
    await userEvent.click(screen.getByRole('radio', { name: new RegExp(texts.dialog.public) }))
    // No pass code, no choice of one.
    expect(screen.queryByRole('group', { name: texts.dialog.codeSource })).toBeNull()
    await userEvent.click(screen.getByRole('radio', { name: texts.dialog.never }))
    await userEvent.click(screen.getByRole('button', { name: texts.dialog.create }))
    await screen.findByTestId('share-created')
    expect(api.callsOf('createShare')).toEqual([[{ fileIds: files.map((file) => file.id), passCode: false, expirationDays: -1 }]])
    expect(screen.queryByTestId('share-pass-code')).toBeNull()
    expect(screen.getByText(texts.created.public)).toBeDefined()
    expect(screen.getByText(texts.created.never)).toBeDefined()
  })

  it('checks the owner’s own code once the field is left, says why inline, and sends nothing until it is valid', async () => {
    const { api } = showDialog()
    await userEvent.click(await screen.findByRole('radio', { name: texts.dialog.customCode }))
    const field = screen.getByLabelText(texts.dialog.customCodeLabel)
    await userEvent.type(field, 'ab')
    // Still being typed: no complaint yet.
    expect(screen.queryByText(texts.dialog.codeInvalid)).toBeNull()
    await userEvent.tab()
    expect(await screen.findByText(texts.dialog.codeInvalid)).toBeDefined()
    expect(field.getAttribute('aria-invalid')).toBe('true')
    await userEvent.type(field, ' !')
    await userEvent.click(screen.getByRole('button', { name: texts.dialog.create }))
    expect(api.callsOf('createShare')).toEqual([])
    expect(document.activeElement).toBe(field)

    await userEvent.clear(field)
    await userEvent.type(field, 'Sun2026')
    expect(screen.queryByText(texts.dialog.codeInvalid)).toBeNull()
    await userEvent.click(screen.getByRole('radio', { name: 'In 30 days' }))
    await userEvent.click(screen.getByRole('button', { name: texts.dialog.create }))
    expect(((await screen.findByTestId('share-pass-code')) as HTMLInputElement).value).toBe('Sun2026')
    expect(api.callsOf('createShare')[0]![0]).toEqual({ fileIds: [expect.any(String)], passCode: true, customPassCode: 'Sun2026', expirationDays: 30 })
  })

  it('shows the link, the pass code and the server’s text, copies the text and says so to screen readers', async () => {
    const writeText = vi.fn(async (_text: string) => undefined)
    stubClipboard(writeText)
    showDialog()
    await userEvent.click(await screen.findByRole('button', { name: texts.dialog.create }))
    expect(await screen.findByRole('heading', { name: texts.created.title })).toBeDefined()
    const link = (screen.getByLabelText(texts.created.link) as HTMLInputElement).value
    const code = (screen.getByLabelText(texts.created.passCode) as HTMLInputElement).value
    const text = (screen.getByLabelText(texts.created.shareText) as HTMLTextAreaElement).value
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1\/s\/s\d+$/)
    expect(code).toMatch(/^[a-z0-9]{4}$/)
    expect(text).toBe(`report.pdf\n${link}\nPass code: ${code}`)
    // The copy button has the focus (the form's button is gone).
    const copy = screen.getByRole('button', { name: texts.created.copy })
    await waitFor(() => expect(document.activeElement).toBe(copy))

    await userEvent.click(copy)
    expect(writeText).toHaveBeenCalledWith(text)
    expect(copy.textContent).toBe(texts.created.copied)
    expect(screen.getAllByRole('status').some((status) => status.textContent === texts.created.copied)).toBe(true)
    await userEvent.click(screen.getByRole('button', { name: texts.created.copyLink }))
    expect(writeText).toHaveBeenLastCalledWith(link)
    // And My shares is one link away.
    expect(screen.getByRole('link', { name: texts.created.myShares }).getAttribute('href')).toBe('/drive/shares')
  })

  it('falls back to a selected text area when the Clipboard API is refused', async () => {
    stubClipboard(async () => Promise.reject(new DOMException('denied', 'NotAllowedError')))
    const execCommand = vi.fn((_command: string) => true)
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true })
    try {
      showDialog()
      await userEvent.click(await screen.findByRole('button', { name: texts.dialog.create }))
      const copy = await screen.findByRole('button', { name: texts.created.copy })
      await userEvent.click(copy)
      expect(execCommand).toHaveBeenCalledWith('copy')
      expect(copy.textContent).toBe(texts.created.copied)

      execCommand.mockReturnValue(false)
      await userEvent.click(screen.getByRole('button', { name: texts.created.copyLink }))
      expect(await screen.findByText(texts.created.copyFailed, { selector: 'p:not([role])' })).toBeDefined()
    } finally {
      Reflect.deleteProperty(document, 'execCommand')
    }
  })

  it('keeps the form with the server’s refusal in the page’s words', async () => {
    const api = new FakeDriveApi([aFile({ name: 'report.pdf' })])
    api.failures.set('createShare', driveError(DriveErrors.file_not_found))
    showDialog(undefined, { api })
    await userEvent.click(await screen.findByRole('button', { name: texts.dialog.create }))
    expect((await screen.findByRole('alert')).textContent).toBe(ERROR_MESSAGES['en-US'].file_not_found)
    expect(screen.queryByTestId('share-created')).toBeNull()
    expect(screen.getByRole('button', { name: texts.dialog.create })).toBeDefined()
  })

  it('shows the server’s refusal of an own code (share_pass_code_invalid)', async () => {
    const api = new FakeDriveApi([aFile({ name: 'report.pdf' })])
    api.failures.set('createShare', driveError(DriveErrors.share_pass_code_invalid))
    showDialog(undefined, { api })
    await userEvent.click(await screen.findByRole('button', { name: texts.dialog.create }))
    expect((await screen.findByRole('alert')).textContent).toBe(ERROR_MESSAGES['en-US'].share_pass_code_invalid)
  })

  it('speaks the page’s language (Korean)', async () => {
    showDialog(undefined, { locale: 'ko' })
    expect(await screen.findByRole('heading', { name: '“report.pdf” 공유' })).toBeDefined()
    expect(screen.getByRole('radio', { name: '7일 후' })).toBeDefined()
    await userEvent.click(screen.getByRole('button', { name: ko.drive.share.dialog.create }))
    expect(await screen.findByRole('heading', { name: ko.drive.share.created.title })).toBeDefined()
  })
})
