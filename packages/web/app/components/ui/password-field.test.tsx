import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderPage } from '../../../test/render'
import { PasswordField } from './password-field'

describe('PasswordField', () => {
  it('hides the password until the toggle is pressed, and hides it again', async () => {
    renderPage(<PasswordField label="Password" defaultValue="s3cret-pass" />)
    const input = screen.getByLabelText('Password')
    expect(input).toHaveProperty('type', 'password')

    await userEvent.click(screen.getByRole('button', { name: 'Show password' }))
    expect(input).toHaveProperty('type', 'text')
    expect(screen.getByRole('button', { name: 'Hide password' }).getAttribute('aria-pressed')).toBe('true')

    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }))
    expect(input).toHaveProperty('type', 'password')
  })

  it('labels the toggle in the page language', async () => {
    renderPage(<PasswordField label="비밀번호" />, { locale: 'ko' })
    expect(await screen.findByRole('button', { name: '비밀번호 표시' })).toBeDefined()
  })
})
