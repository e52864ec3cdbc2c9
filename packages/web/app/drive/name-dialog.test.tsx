import { DriveErrors, ERROR_MESSAGES } from '@cumulus/protocol'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import { driveError } from './fake-drive-api'
import { NameDialog } from './name-dialog'
import { baseNameLength, findNameProblem } from './names'

describe('findNameProblem', () => {
  it('names the drive reason the service would answer', () => {
    expect(findNameProblem('')).toBe(DriveErrors.file_name_empty.reason)
    expect(findNameProblem('   ')).toBe(DriveErrors.file_name_empty.reason)
    expect(findNameProblem('a/b')).toBe(DriveErrors.file_name_invalid.reason)
    expect(findNameProblem('tab\there')).toBe(DriveErrors.file_name_invalid.reason)
    expect(findNameProblem('..')).toBe(DriveErrors.file_name_invalid.reason)
    expect(findNameProblem('.')).toBe(DriveErrors.file_name_invalid.reason)
    // 255 bytes is the limit, counted in UTF-8: 85 three-byte characters fit, 86 do not.
    expect(findNameProblem('가'.repeat(85))).toBeNull()
    expect(findNameProblem('가'.repeat(86))).toBe(DriveErrors.file_name_too_long.reason)
    expect(findNameProblem('a'.repeat(255))).toBeNull()
    expect(findNameProblem('  report (final).pdf ')).toBeNull()
    expect(findNameProblem('.env')).toBeNull()
  })

  it('baseNameLength leaves a file extension out of the selection, not a folder’s', () => {
    expect(baseNameLength('report.final.pdf', false)).toBe('report.final'.length)
    expect(baseNameLength('.env', false)).toBe(4)
    expect(baseNameLength('photos.2024', true)).toBe(11)
  })
})

function showDialog(onSubmit = vi.fn(async () => undefined), locale: 'en-US' | 'ko' = 'en-US') {
  const onOpenChange = vi.fn()
  renderPage(<NameDialog open onOpenChange={onOpenChange} mode="rename" initialName="report.pdf" isFolder={false} onSubmit={onSubmit} />, { locale })
  return { onSubmit, onOpenChange }
}

describe('NameDialog', () => {
  it('starts with the name, its base name selected', async () => {
    showDialog()
    const field = (await screen.findByLabelText('Name')) as HTMLInputElement
    expect(field.value).toBe('report.pdf')
    await waitFor(() => expect(document.activeElement).toBe(field))
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, 6])
  })

  it('shows the catalogue’s text for each rule as the user types, and does not submit', async () => {
    const { onSubmit } = showDialog()
    const field = await screen.findByLabelText('Name')
    await userEvent.clear(field)
    expect(await screen.findByText(ERROR_MESSAGES['en-US'].file_name_empty)).toBeDefined()
    await userEvent.type(field, 'a/b')
    expect(await screen.findByText(ERROR_MESSAGES['en-US'].file_name_invalid)).toBeDefined()
    expect(field.getAttribute('aria-invalid')).toBe('true')
    await userEvent.clear(field)
    await userEvent.type(field, 'x'.repeat(256))
    expect(await screen.findByText(ERROR_MESSAGES['en-US'].file_name_too_long)).toBeDefined()
    await userEvent.click(screen.getByRole('button', { name: 'Rename' }))
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('sends the name without surrounding spaces and closes', async () => {
    const { onSubmit, onOpenChange } = showDialog()
    const field = await screen.findByLabelText('Name')
    await userEvent.clear(field)
    await userEvent.type(field, '  summary.pdf  {Enter}')
    expect(onSubmit).toHaveBeenCalledWith('summary.pdf')
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false))
  })

  it('keeps the dialog open with the server’s refusal under the field', async () => {
    const { onOpenChange } = showDialog(vi.fn(async () => Promise.reject(driveError(DriveErrors.file_duplicated_name))))
    const field = await screen.findByLabelText('Name')
    await userEvent.clear(field)
    await userEvent.type(field, 'taken.pdf{Enter}')
    expect(await screen.findByText(ERROR_MESSAGES['en-US'].file_duplicated_name)).toBeDefined()
    expect(onOpenChange).not.toHaveBeenCalledWith(false)
  })

  it('speaks the page’s language (Korean)', async () => {
    showDialog(undefined, 'ko')
    const field = await screen.findByLabelText('이름')
    await userEvent.clear(field)
    expect(await screen.findByText(ERROR_MESSAGES.ko.file_name_empty)).toBeDefined()
  })
})
