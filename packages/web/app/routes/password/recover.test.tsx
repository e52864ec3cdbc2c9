import { AccountErrors } from '@cumulus/protocol'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../../test/render'
import { errorReply, fakeIdentityService } from '../../components/auth/testing/fake-identity-service'
import RecoverPage from './recover'

const service = vi.hoisted(() => ({ current: null as ReturnType<typeof fakeIdentityService> | null }))
vi.mock('../../session/identity-client', () => ({ getIdentityClient: () => service.current!.client }))

const bodyOf = (key: string) => service.current!.callsTo(key).map((c) => c.body)

describe('password recovery page', () => {
  beforeEach(() => {
    service.current = fakeIdentityService()
  })

  it('sends a reset code, sets the new password and links to sign-in', async () => {
    renderPage(<RecoverPage />, { path: '/password/recover' })
    await userEvent.type(screen.getByLabelText('E-mail address'), 'ann@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await screen.findByText(/Code sent to ann@example.com/)
    expect(bodyOf('POST /v1/auth/verification')).toEqual([expect.objectContaining({ email: 'ann@example.com', usage: 'PASSWORD_RESET', target: 'USER' })])

    await userEvent.type(screen.getByLabelText('Verification code'), '246810')
    await userEvent.type(screen.getByLabelText('New password'), 'a brand new pass')
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }))

    expect(await screen.findByRole('heading', { level: 1, name: 'Password changed' })).toBeDefined()
    expect(screen.getByRole('status').textContent).toContain('Your password has been changed.')
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/account/login')
    expect(bodyOf('POST /v1/auth/reset')).toEqual([expect.objectContaining({ email: 'ann@example.com', verification_token: 'verification-token', password: 'a brand new pass' })])
  })

  it('checks the address, code and password before sending', async () => {
    renderPage(<RecoverPage />, { path: '/password/recover' })
    await userEvent.click(screen.getByRole('radio', { name: 'Phone' }))
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }))
    expect(screen.getByText('Enter your phone number.')).toBeDefined()
    expect(screen.getByText('Enter the verification code.')).toBeDefined()
    expect(screen.getByText('Enter your password.')).toBeDefined()
    await userEvent.type(screen.getByLabelText('Verification code'), '12a3')
    expect(screen.getByLabelText('Verification code')).toHaveProperty('value', '123')
    expect(screen.getByText('The code has 6 digits.')).toBeDefined()
    expect(service.current!.calls).toEqual([])
  })

  it('shows a wrong code’s message from the server in the page language', async () => {
    service.current = fakeIdentityService(
      { 'POST /v1/auth/verification/verify': errorReply(400, 'invalid_verification_code', AccountErrors.invalid_verification_code.code, { 'zh-TW': '驗證碼錯誤' }) },
      { locale: 'zh-TW' },
    )
    renderPage(<RecoverPage />, { path: '/password/recover', locale: 'zh-TW' })
    await userEvent.click(screen.getByRole('radio', { name: '手機' }))
    await userEvent.type(screen.getByLabelText('手機號碼'), '0912 345 678')
    await userEvent.click(screen.getByRole('button', { name: '取得驗證碼' }))
    await screen.findByText(/驗證碼已傳送至 \+886912345678/)
    await userEvent.type(screen.getByLabelText('驗證碼'), '000000')
    await userEvent.type(screen.getByLabelText('新密碼'), 'a brand new pass')
    await userEvent.click(screen.getByRole('button', { name: '重設密碼' }))
    expect((await screen.findByRole('alert')).textContent).toBe('驗證碼錯誤')
    expect(service.current.callsTo('POST /v1/auth/reset')).toEqual([])
  })
})
